-- API keys of the HTTP API. The key is never stored, only its SHA-256.
CREATE TABLE api_keys (
    id         TEXT PRIMARY KEY,
    name       TEXT NOT NULL DEFAULT '',
    scope      TEXT NOT NULL,
    prefix     TEXT NOT NULL DEFAULT '',
    hash       TEXT NOT NULL UNIQUE,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
