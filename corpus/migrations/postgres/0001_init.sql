-- The PostgreSQL form of migrations/sqlite/0001_init.sql: the same tables
-- and columns, with times as TIMESTAMPTZ (microseconds, NULL when unknown)
-- and JSON columns as JSONB, except parsed_data, kept as JSON so that model
-- output is stored as written.

CREATE TABLE sources (
    id           TEXT PRIMARY KEY,
    url          TEXT NOT NULL DEFAULT '',
    domain       TEXT NOT NULL DEFAULT '',
    title        TEXT NOT NULL DEFAULT '',
    published_at TIMESTAMPTZ,
    reliability  DOUBLE PRECISION NOT NULL DEFAULT 0,
    content_hash TEXT NOT NULL DEFAULT '',
    ingested_at  TIMESTAMPTZ,
    passages     BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX idx_sources_ingested ON sources (ingested_at DESC NULLS LAST, id);
CREATE INDEX idx_sources_domain ON sources (lower(domain));

CREATE TABLE jobs (
    id          TEXT PRIMARY KEY,
    state       TEXT NOT NULL,
    sources     JSONB NOT NULL,  -- array of strings
    total       BIGINT NOT NULL DEFAULT 0,
    done        BIGINT NOT NULL DEFAULT 0,
    ingested    BIGINT NOT NULL DEFAULT 0,
    skipped     BIGINT NOT NULL DEFAULT 0,
    failed      BIGINT NOT NULL DEFAULT 0,
    errors      JSONB NOT NULL,  -- array of {source, reason}
    created_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL,
    finished_at TIMESTAMPTZ,
    message     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX idx_jobs_created ON jobs (created_at DESC, id DESC);

-- Seed 001, "Database Schema": one row per completed stage of a fact-check.
CREATE TABLE deliberation_stages (
    id               TEXT PRIMARY KEY,
    message_id       TEXT NOT NULL,
    conversation_id  TEXT NOT NULL DEFAULT '',
    stage_type       TEXT NOT NULL,
    stage_order      INTEGER NOT NULL,
    model            TEXT NOT NULL DEFAULT '',
    role             TEXT NOT NULL DEFAULT '',
    content          TEXT NOT NULL DEFAULT '',
    parsed_data      JSON,
    response_time_ms BIGINT NOT NULL DEFAULT 0,
    created_at       TIMESTAMPTZ NOT NULL
);
CREATE INDEX idx_deliberation_stages_message ON deliberation_stages (message_id, stage_order);
