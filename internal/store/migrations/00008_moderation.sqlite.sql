-- Results the server doubts and results its operator moderates, SQLite. A run carries the
-- server's reasons to doubt it (flags, a JSON array, empty for none: figures above what its link
-- or class can carry, figures that contradict each other; internal/server works them out on
-- upload) and the operator's word (moderation: '' to follow the flags, 'hidden', or 'approved'
-- to list it despite them). listed says whether the run counts: in lists, searches, counts,
-- rankings and medians. It is kept on save and on moderation (store/moderation.go), so queries
-- test one column; run_counts and search_names.runs count listed runs only.
--
-- Every index lists walk becomes partial (WHERE listed = 1): queries say listed = 1, so an
-- index holds only the runs they may return and filtering stays inside it, as 00005 made it.
-- runs_moderated lists the flagged and moderated runs for the operator.

-- +goose Up
ALTER TABLE runs ADD COLUMN flags TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN moderation TEXT NOT NULL DEFAULT '';
ALTER TABLE runs ADD COLUMN listed SMALLINT NOT NULL DEFAULT 1;

DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC,
    name_id, board, device_key, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC,
    name_id, device_key, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC,
    board, device_key, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_device_key;
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC,
    name_id, board, device_class, source, link_bus, capacity_bytes) WHERE listed = 1;
DROP INDEX runs_device_class;
CREATE INDEX runs_device_class ON runs (device_class, created_at_us DESC, id DESC) WHERE listed = 1;
DROP INDEX runs_source;
CREATE INDEX runs_source ON runs (source, created_at_us DESC, id DESC) WHERE listed = 1;
CREATE INDEX runs_moderated ON runs (created_at_us DESC, id DESC) WHERE flags <> '' OR moderation <> '';

-- +goose Down
DROP INDEX runs_moderated;
DROP INDEX runs_source;
CREATE INDEX runs_source ON runs (source, created_at_us DESC, id DESC);
DROP INDEX runs_device_class;
CREATE INDEX runs_device_class ON runs (device_class, created_at_us DESC, id DESC);
DROP INDEX runs_device_key;
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC,
    name_id, board, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC,
    board, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC,
    name_id, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC,
    name_id, board, device_key, device_class, source, link_bus, capacity_bytes);
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
