-- Brand/model text search, SQLite: an FTS5 table over runs.search_text kept in step by
-- triggers. It stores its own copy with the run id (unindexed) rather than pointing at runs'
-- rowid, which VACUUM may renumber because runs has a TEXT primary key. search_text holds only
-- lower-case words of letters and digits made by iomark, so the tokenizer has nothing to decide.

-- +goose Up
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

-- +goose Down
DROP TRIGGER runs_search_update;
DROP TRIGGER runs_search_delete;
DROP TRIGGER runs_search_insert;
DROP TABLE runs_search;
