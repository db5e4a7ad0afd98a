-- Every column a search filters on, in the remaining indexes searches walk: a drive's runs
-- (the plan for a rare combination of filters, aggregate.go) and run_counts by board and by
-- name, so that counting and summarizing a search read those indexes alone. As in 00005, the
-- columns trail the key (SQLite has no INCLUDE).

-- +goose Up
DROP INDEX runs_device_key;
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC,
    name_id, board, device_class, source, link_bus, capacity_bytes);
DROP INDEX run_counts_board;
CREATE INDEX run_counts_board ON run_counts (board, name_id, device_class, source, link_bus,
    capacity_bytes, device_key, vendor, model, runs);
DROP INDEX run_counts_name;
CREATE INDEX run_counts_name ON run_counts (name_id, board, device_class, source, link_bus,
    capacity_bytes, device_key, vendor, model, runs);

-- +goose Down
DROP INDEX run_counts_name;
CREATE INDEX run_counts_name ON run_counts (name_id);
DROP INDEX run_counts_board;
CREATE INDEX run_counts_board ON run_counts (board);
DROP INDEX runs_device_key;
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC);
