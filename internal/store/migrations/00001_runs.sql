-- Runs and their per-test figures. Shared by SQLite and PostgreSQL: only types and syntax both
-- accept (BIGINT and DOUBLE PRECISION take INTEGER and REAL affinity in SQLite).

-- +goose Up
CREATE TABLE runs (
    id                 TEXT NOT NULL PRIMARY KEY,
    created_at_us      BIGINT NOT NULL,            -- microseconds since the Unix epoch, UTC
    tool_version       TEXT NOT NULL,
    profile            TEXT NOT NULL,
    board              TEXT NOT NULL,
    board_revision     TEXT NOT NULL,
    device_class       TEXT NOT NULL,
    vendor             TEXT NOT NULL,
    model              TEXT NOT NULL,
    capacity_bytes     BIGINT NOT NULL,
    link_bus           TEXT NOT NULL,
    link_speed_mbps    INTEGER NOT NULL,
    device_key         TEXT NOT NULL,              -- stable identity, e.g. sd:manfid:oemid:name
    score_iomark       DOUBLE PRECISION,
    score_pibenchmarks DOUBLE PRECISION,
    source             TEXT NOT NULL CHECK (source IN ('local', 'submitted', 'published')),
    search_text        TEXT NOT NULL,              -- vendor and model as lower-case words (search.go)
    record             TEXT NOT NULL               -- the result record JSON, as given
);

-- Every list is newest first, ties by id; each filter has an index that serves that order.
CREATE INDEX runs_created ON runs (created_at_us DESC, id DESC);
CREATE INDEX runs_device_key ON runs (device_key, created_at_us DESC, id DESC);
CREATE INDEX runs_board ON runs (board, created_at_us DESC, id DESC);
CREATE INDEX runs_device_class ON runs (device_class, created_at_us DESC, id DESC);
CREATE INDEX runs_source ON runs (source, created_at_us DESC, id DESC);

CREATE TABLE tests (
    run_id     TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq        INTEGER NOT NULL,                   -- position in the record's tests array
    name       TEXT NOT NULL,
    op         TEXT NOT NULL,
    bs_bytes   BIGINT NOT NULL,
    qd         INTEGER NOT NULL,
    jobs       INTEGER NOT NULL,
    iops       DOUBLE PRECISION NOT NULL,
    mb_per_s   DOUBLE PRECISION NOT NULL,          -- 10^6 bytes per second
    lat_p50_us DOUBLE PRECISION NOT NULL,
    lat_p99_us DOUBLE PRECISION NOT NULL,
    lat_max_us DOUBLE PRECISION NOT NULL,
    ci95_pct   DOUBLE PRECISION,
    PRIMARY KEY (run_id, seq)
);

CREATE INDEX tests_name ON tests (name, mb_per_s);

-- +goose Down
DROP TABLE tests;
DROP TABLE runs;
