-- Brand/model text search, PostgreSQL: a generated tsvector of runs.search_text with a GIN
-- index. search_text holds only lower-case words of letters and digits made by iomark, and the
-- 'simple' configuration neither stems nor drops stop words, so a query matches the same runs
-- as on SQLite whatever the database's locale (see search.go).

-- +goose Up
ALTER TABLE runs ADD COLUMN search tsvector
    GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED;

CREATE INDEX runs_search ON runs USING GIN (search);

-- +goose Down
DROP INDEX runs_search;
ALTER TABLE runs DROP COLUMN search;
