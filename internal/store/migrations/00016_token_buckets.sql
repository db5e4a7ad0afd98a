-- Token buckets that several results servers on one PostgreSQL database share (the upload
-- limits: per address, per network, for the whole site), so N servers accept what one would.
-- A row is a bucket: its tokens at at_us. A refused upload's transaction rolls back, so only
-- accepted uploads add rows, and rows old enough to have refilled are deleted. SQLite servers
-- keep their buckets in memory and leave this table empty. Shared by SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE token_buckets (
    key    TEXT NOT NULL PRIMARY KEY,
    tokens DOUBLE PRECISION NOT NULL,
    at_us  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE token_buckets;
