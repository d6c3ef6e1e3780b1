-- The PostgreSQL form of migrations/sqlite/0002_api_keys.sql.
CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL DEFAULT '',
    scope      TEXT NOT NULL,
    prefix     TEXT NOT NULL DEFAULT '',
    hash       TEXT NOT NULL UNIQUE,
    created_at TIMESTAMPTZ NOT NULL,
    revoked_at TIMESTAMPTZ
);
