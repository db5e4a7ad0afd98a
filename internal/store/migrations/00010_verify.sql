-- Results of `iomark verify` (fake capacity): the result JSON as given, and the columns the
-- caller extracted to find the latest verdict for a drive. Shared by SQLite and PostgreSQL.
-- device_key groups a product (as runs.device_key); unit_key names one physical drive (the
-- device key, its serial hash and its claimed size), which a fake-capacity finding is about.

-- +goose Up
CREATE TABLE verifies (
    id            TEXT NOT NULL PRIMARY KEY,
    created_at_us BIGINT NOT NULL,                  -- microseconds since the Unix epoch, UTC
    device_key    TEXT NOT NULL,
    unit_key      TEXT NOT NULL,
    target        TEXT NOT NULL,                    -- the device or directory verified
    mode          TEXT NOT NULL CHECK (mode IN ('probe', 'fill')),
    verdict       TEXT NOT NULL,
    claimed_bytes BIGINT NOT NULL,
    usable_bytes  BIGINT NOT NULL,
    result        TEXT NOT NULL                     -- the verify result JSON, as given
);

CREATE INDEX verifies_unit ON verifies (unit_key, created_at_us DESC, id DESC);
CREATE INDEX verifies_device ON verifies (device_key, created_at_us DESC, id DESC);

-- +goose Down
DROP TABLE verifies;
