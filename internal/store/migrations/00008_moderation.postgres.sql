-- Results the server doubts and results its operator moderates, PostgreSQL: as
-- 00008_moderation.sqlite.sql says, with the filtered columns INCLUDEd as in 00005 and 00007.

-- +goose Up
ALTER TABLE runs ADD COLUMN flags TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN moderation TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN listed SMALLINT NOT NULL DEFAULT 1;

DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC)
    INCLUDE (name_id, board, device_key, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC)
    INCLUDE (name_id, device_key, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC)
    INCLUDE (board, device_key, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_device_key;
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC)
    INCLUDE (name_id, board, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_device_class;
CREATE INDEX runs_device_class ON runs (device_class, created_at_us DESC, id DESC) WHERE listed = 1;
DROP INDEX runs_source;
CREATE INDEX runs_source ON runs (source, created_at_us DESC, id DESC) WHERE listed = 1;
CREATE INDEX runs_moderated ON runs (created_at_us DESC, id DESC) WHERE flags <> '' OR moderation <> '';
-- The planner has no statistics of the new column until autovacuum analyzes runs (adding a column
-- counts as no change): without them it guessed 2,000 runs on a board that has 400,000 and sorted
-- them all to rank it (9.9 s at a million results instead of 94 ms).
ANALYZE runs;

-- +goose Down
DROP INDEX runs_moderated;
DROP INDEX runs_source;
CREATE INDEX runs_source ON runs (source, created_at_us DESC, id DESC);
DROP INDEX runs_device_class;
CREATE INDEX runs_device_class ON runs (device_class, created_at_us DESC, id DESC);
DROP INDEX runs_device_key;
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC)
    INCLUDE (name_id, board, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC)
    INCLUDE (board, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC)
    INCLUDE (name_id, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC)
    INCLUDE (name_id, board, device_key, device_class, source, link_bus, capacity_bytes);
ALTER TABLE runs DROP COLUMN listed;
ALTER TABLE runs DROP COLUMN moderation;
ALTER TABLE runs DROP COLUMN flags;
-- Every run counts again, unlisted ones included.
DELETE FROM run_counts;
INSERT INTO run_counts (device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes, runs)
SELECT device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes, COUNT(*)
FROM runs
GROUP BY device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes;
UPDATE search_names SET runs = (SELECT COUNT(*) FROM runs WHERE runs.name_id = search_names.id);
ANALYZE runs;
