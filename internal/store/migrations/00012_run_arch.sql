-- The kernel's machine name of the run's host (record host.arch, uname -m: x86_64, aarch64),
-- so the results server can rank a board it does not know among PCs or among SBCs. Records
-- made before iomark read it have none: ''. Shared by SQLite and PostgreSQL.

-- +goose Up
ALTER TABLE runs ADD COLUMN arch TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE runs DROP COLUMN arch;
