-- The document frequency of every term of the full-text index, which
-- search reads to leave the commonest terms of a long query out of the
-- ranking (see Embedded.pruneTerms).
CREATE VIRTUAL TABLE passages_fts_vocab USING fts5vocab(passages_fts, 'row');
