-- How many runs share each combination of the columns searches filter on. Counting the results
-- of a search, listing the drives that match it and ranking boards read this small table
-- instead of every run: a popular board has hundreds of thousands of runs but only a few
-- thousand combinations. Saving a run adds one to its row in the same transaction (counts.go),
-- so the counts are exact. Runs are never deleted by iomark.

-- +goose Up
CREATE TABLE run_counts (
    device_key     TEXT NOT NULL,
    board          TEXT NOT NULL,
    source         TEXT NOT NULL,
    name_id        BIGINT NOT NULL REFERENCES search_names (id),
    device_class   TEXT NOT NULL,
    vendor         TEXT NOT NULL,
    model          TEXT NOT NULL,
    link_bus       TEXT NOT NULL,
    capacity_bytes BIGINT NOT NULL,
    runs           BIGINT NOT NULL,
    PRIMARY KEY (device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes)
);

CREATE INDEX run_counts_board ON run_counts (board);
CREATE INDEX run_counts_name ON run_counts (name_id);

INSERT INTO run_counts (device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes, runs)
SELECT device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes, COUNT(*)
FROM runs
GROUP BY device_key, board, source, name_id, device_class, vendor, model, link_bus, capacity_bytes;

-- +goose Down
DROP TABLE run_counts;
