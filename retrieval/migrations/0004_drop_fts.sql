-- BM25 moved to the store's own inverted index (lexical.go), built from
-- passages.text and passages.title and snapshotted beside the database:
-- the FTS5 index, its triggers and its vocabulary table go.
DROP TRIGGER IF EXISTS passages_ai;
DROP TRIGGER IF EXISTS passages_ad;
DROP TRIGGER IF EXISTS passages_au;
DROP TABLE IF EXISTS passages_fts_vocab;
DROP TABLE IF EXISTS passages_fts;
