-- How many runs carry each search name, kept on save with run_counts (counts.go): SQLite picks
-- the index a text search walks from it (aggregate.go), without counting the runs of a common
-- word, which can be most of them.

-- +goose Up
ALTER TABLE search_names ADD COLUMN runs BIGINT NOT NULL DEFAULT 0;
UPDATE search_names SET runs = (SELECT COUNT(*) FROM runs WHERE runs.name_id = search_names.id);

-- +goose Down
ALTER TABLE search_names DROP COLUMN runs;
