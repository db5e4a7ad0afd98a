-- A verify's mode may also be 'full' (`iomark verify DISK --full`: the probe, then every block
-- read). The CHECK constraint is part of the table in SQLite, so the table is rebuilt; the same
-- statements run on PostgreSQL.

-- +goose Up
CREATE TABLE verifies_new (
    id            TEXT NOT NULL PRIMARY KEY,
    created_at_us BIGINT NOT NULL,
    device_key    TEXT NOT NULL,
    unit_key      TEXT NOT NULL,
    target        TEXT NOT NULL,
    mode          TEXT NOT NULL CHECK (mode IN ('probe', 'fill', 'full')),
    verdict       TEXT NOT NULL,
    claimed_bytes BIGINT NOT NULL,
    usable_bytes  BIGINT NOT NULL,
    result        TEXT NOT NULL
);
INSERT INTO verifies_new SELECT id, created_at_us, device_key, unit_key, target, mode, verdict, claimed_bytes, usable_bytes, result FROM verifies;
DROP TABLE verifies;
ALTER TABLE verifies_new RENAME TO verifies;
CREATE INDEX verifies_unit ON verifies (unit_key, created_at_us DESC, id DESC);
CREATE INDEX verifies_device ON verifies (device_key, created_at_us DESC, id DESC);

-- +goose Down
CREATE TABLE verifies_old (
    id            TEXT NOT NULL PRIMARY KEY,
    created_at_us BIGINT NOT NULL,
    device_key    TEXT NOT NULL,
    unit_key      TEXT NOT NULL,
    target        TEXT NOT NULL,
    mode          TEXT NOT NULL CHECK (mode IN ('probe', 'fill')),
    verdict       TEXT NOT NULL,
    claimed_bytes BIGINT NOT NULL,
    usable_bytes  BIGINT NOT NULL,
    result        TEXT NOT NULL
);
INSERT INTO verifies_old SELECT id, created_at_us, device_key, unit_key, target, mode, verdict, claimed_bytes, usable_bytes, result FROM verifies WHERE mode <> 'full';
DROP TABLE verifies;
ALTER TABLE verifies_old RENAME TO verifies;
CREATE INDEX verifies_unit ON verifies (unit_key, created_at_us DESC, id DESC);
CREATE INDEX verifies_device ON verifies (device_key, created_at_us DESC, id DESC);
