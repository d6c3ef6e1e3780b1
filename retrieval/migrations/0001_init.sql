-- Passages with their dense vectors, and an FTS5 index over their text and
-- title for BM25. Times are INTEGER microseconds since the Unix epoch (UTC),
-- NULL when unknown.
CREATE TABLE passages (
    rid          INTEGER PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    source_id    TEXT NOT NULL,
    ordinal      INTEGER NOT NULL,
    text         TEXT NOT NULL,
    url          TEXT NOT NULL DEFAULT '',
    domain       TEXT NOT NULL DEFAULT '',
    -- domain lower-cased without "www.", what Filter.Domains matches
    domain_key   TEXT NOT NULL DEFAULT '',
    title        TEXT NOT NULL DEFAULT '',
    published_at INTEGER,
    reliability  REAL NOT NULL DEFAULT 0,
    -- unit-length float32 vector, little-endian
    vec          BLOB NOT NULL
);
CREATE INDEX idx_passages_source ON passages (source_id);

CREATE VIRTUAL TABLE passages_fts USING fts5 (
    text, title,
    content = 'passages', content_rowid = 'rid',
    tokenize = 'porter unicode61 remove_diacritics 2'
);

-- The external-content FTS table follows passages through triggers, inside
-- the same transaction as the row.
CREATE TRIGGER passages_ai AFTER INSERT ON passages BEGIN
    INSERT INTO passages_fts (rowid, text, title) VALUES (new.rid, new.text, new.title);
END;
CREATE TRIGGER passages_ad AFTER DELETE ON passages BEGIN
    INSERT INTO passages_fts (passages_fts, rowid, text, title) VALUES ('delete', old.rid, old.text, old.title);
END;
CREATE TRIGGER passages_au AFTER UPDATE ON passages BEGIN
    INSERT INTO passages_fts (passages_fts, rowid, text, title) VALUES ('delete', old.rid, old.text, old.title);
    INSERT INTO passages_fts (rowid, text, title) VALUES (new.rid, new.text, new.title);
END;
