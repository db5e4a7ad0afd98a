-- What the comparison model (internal/compare) decided about each run, made when the run is
-- stored so the site filters and ranks by it: the drive model, the board and its family, the
-- class and link setting it ranks in, whether it can rank at all (virtual devices never do),
-- and its headline figures in MB/s (the score in points). version is compare.Version; the
-- server re-decides rows of an older version at start. Shared by SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE run_rank (
    run_id             TEXT NOT NULL PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    version            INTEGER NOT NULL,
    model_key          TEXT NOT NULL,
    model_name         TEXT NOT NULL,
    board              TEXT NOT NULL,
    family             TEXT NOT NULL,
    device_class       TEXT NOT NULL,
    link_setting       TEXT NOT NULL,
    setting_inferred   TEXT NOT NULL,
    ranked             INTEGER NOT NULL,
    score              DOUBLE PRECISION,
    seq_read_mb_per_s  DOUBLE PRECISION,
    seq_read_method    TEXT NOT NULL,
    seq_write_mb_per_s DOUBLE PRECISION,
    seq_write_method   TEXT NOT NULL,
    rand_read_4k_mb_per_s  DOUBLE PRECISION,
    rand_write_4k_mb_per_s DOUBLE PRECISION,
    price_usd          DOUBLE PRECISION,           -- the drive's price: --price, or the published source's
    price_source       TEXT NOT NULL               -- "sent by its uploader (iomark run --price)", or the source id and date
);

CREATE INDEX run_rank_family ON run_rank (family, ranked, device_class, link_setting);
CREATE INDEX run_rank_model ON run_rank (model_key);
CREATE INDEX run_rank_version ON run_rank (version);

-- +goose Down
DROP TABLE run_rank;
