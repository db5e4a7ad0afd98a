-- Brand/model search over distinct names instead of every run, SQLite. Most runs share their
-- name with many others (one drive model, thousands of uploads), so the search index holds each
-- name once and runs point at it: a word matches a few thousand names at most, where it matched
-- hundreds of thousands of runs, and saving a run no longer writes to a full-text index.
-- search_names.id is an INTEGER PRIMARY KEY, so VACUUM keeps it and the FTS5 table can point at
-- it (00002 kept its own copy for that reason). Replaces 00002's per-run FTS table.

-- +goose Up
CREATE TABLE search_names (
    id          INTEGER PRIMARY KEY,
    search_text TEXT NOT NULL UNIQUE             -- as runs.search_text (search.go)
);

CREATE VIRTUAL TABLE search_names_fts USING fts5(
    search_text,
    content = 'search_names',
    content_rowid = 'id',
    tokenize = 'unicode61 remove_diacritics 0'
);

-- +goose StatementBegin
CREATE TRIGGER search_names_insert AFTER INSERT ON search_names BEGIN
    INSERT INTO search_names_fts (rowid, search_text) VALUES (new.id, new.search_text);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER search_names_delete AFTER DELETE ON search_names BEGIN
    INSERT INTO search_names_fts (search_names_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
END;
-- +goose StatementEnd

INSERT INTO search_names (search_text) SELECT DISTINCT search_text FROM runs ORDER BY search_text;

ALTER TABLE runs ADD COLUMN name_id INTEGER REFERENCES search_names (id);
UPDATE runs SET name_id = (SELECT id FROM search_names WHERE search_names.search_text = runs.search_text);
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC);

DROP TRIGGER runs_search_update;
DROP TRIGGER runs_search_delete;
DROP TRIGGER runs_search_insert;
DROP TABLE runs_search;

-- +goose Down
CREATE VIRTUAL TABLE runs_search USING fts5(
    run_id UNINDEXED,
    search_text,
    tokenize = 'unicode61 remove_diacritics 0'
);

-- +goose StatementBegin
CREATE TRIGGER runs_search_insert AFTER INSERT ON runs BEGIN
    INSERT INTO runs_search (run_id, search_text) VALUES (new.id, new.search_text);
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER runs_search_delete AFTER DELETE ON runs BEGIN
    DELETE FROM runs_search WHERE run_id = old.id;
END;
-- +goose StatementEnd

-- +goose StatementBegin
CREATE TRIGGER runs_search_update AFTER UPDATE OF id, search_text ON runs BEGIN
    DELETE FROM runs_search WHERE run_id = old.id;
    INSERT INTO runs_search (run_id, search_text) VALUES (new.id, new.search_text);
END;
-- +goose StatementEnd

INSERT INTO runs_search (run_id, search_text) SELECT id, search_text FROM runs;

DROP INDEX runs_name;
ALTER TABLE runs DROP COLUMN name_id;
DROP TRIGGER search_names_delete;
DROP TRIGGER search_names_insert;
DROP TABLE search_names_fts;
DROP TABLE search_names;
