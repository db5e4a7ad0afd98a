-- Lists that filter while they walk an index (a search on one board, newest first) test each
-- run they pass. With the filtered columns included in the index, PostgreSQL finds the ids of
-- the page by an index-only scan and reads the rows of those runs only (aggregate.go reads ids
-- first, then the rows); before, it read the row of every run it passed. An index-only scan
-- still reads the row of a run on a page not yet marked all-visible by VACUUM; by default
-- autovacuum comes after inserts of 20 % of the table (200,000 runs at a million), so runs asks
-- for it every 1 % instead, which keeps the newest runs, those lists read most, visible.

-- +goose Up
DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC)
    INCLUDE (name_id, board, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC)
    INCLUDE (name_id, device_key, device_class, source, link_bus, capacity_bytes);
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC)
    INCLUDE (board, device_key, device_class, source, link_bus, capacity_bytes);
ALTER TABLE runs SET (autovacuum_vacuum_insert_scale_factor = 0.01);

-- +goose Down
ALTER TABLE runs RESET (autovacuum_vacuum_insert_scale_factor);
DROP INDEX runs_name;
CREATE INDEX runs_name ON runs (name_id, created_at_us DESC, id DESC);
DROP INDEX runs_board;
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC);
DROP INDEX runs_created;
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC);
