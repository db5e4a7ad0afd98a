-- Taking a result back. run_deletions keeps, for each uploaded run, the SHA-256 of the deletion
-- token its uploader received (never the token) and when the uploader used it (0: not yet); a
-- deleted run is hidden (moderation), so every list and ranking drops it, and the operator's
-- review lists it with the time. submissions keeps, in a local database, the token each upload
-- of a local run received, so `iomark submit --delete` finds it. Shared by SQLite and PostgreSQL.

-- +goose Up
CREATE TABLE run_deletions (
    run_id        TEXT NOT NULL PRIMARY KEY REFERENCES runs (id) ON DELETE CASCADE,
    token_sha256  TEXT NOT NULL,
    deleted_at_us BIGINT NOT NULL DEFAULT 0
);

CREATE TABLE submissions (
    server        TEXT NOT NULL,
    result_id     TEXT NOT NULL,
    run_id        TEXT NOT NULL,
    delete_token  TEXT NOT NULL,
    url           TEXT NOT NULL,
    submitted_at_us BIGINT NOT NULL,
    PRIMARY KEY (server, result_id)
);

-- +goose Down
DROP TABLE submissions;
DROP TABLE run_deletions;
