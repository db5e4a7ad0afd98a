-- Lists that filter while they walk an index (a search on one board, newest first) test each
-- run they pass. With the filtered columns in the index, SQLite tests them there and reads a
-- run's row only for the runs it lists (aggregate.go reads ids first, then the rows). SQLite
-- has no INCLUDE, so the columns trail the key.

-- +goose Up
DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC,
    name_id, board, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC,
    name_id, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC,
    board, device_key, device_class, source, link_bus, capacity_bytes);

-- +goose Down
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC);
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC);
DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC);
