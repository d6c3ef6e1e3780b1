-- The write generation of the passages: every transaction that changes
-- passages adds one, so that a dense-index snapshot written beside the
-- database (see snapshot.go) can tell whether it is current.
CREATE TABLE passages_generation (
    id  INTEGER PRIMARY KEY CHECK (id = 1),
    gen INTEGER NOT NULL
);
INSERT INTO passages_generation (id, gen) VALUES (1, 0);
