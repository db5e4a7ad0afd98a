// Package store owns iomark's results database: one schema for SQLite (the default, a local
// file, pure Go through modernc.org/sqlite) and PostgreSQL (by URL, through pgx's database/sql
// driver), its migrations, and saving, fetching, listing and searching runs.
//
// A run is kept twice: whole, as the versioned result record JSON exactly as the caller gave it
// (the source of truth; exports and the server's raw download read it back byte for byte), and
// as a few columns the caller extracts from it (board, device, link, scores, one row per test)
// so that lists, filters and rankings need not parse JSON. The store does not interpret the
// record beyond checking it is a JSON object (one migration excepted: scrub.go removes what
// record.PrivateFields names from uploaded records): it must not know the record's schema, probe
// devices, run benchmarks or render anything. Every statement is parameterised.
//
// Two small tables are kept in step with runs in the transaction that saves them (counts.go):
// search_names, each distinct brand/model text once, which text search matches; and
// run_counts, how many runs share each combination of the filtered columns, which counts and
// groupings read. Both stay small while runs grows, which keeps search and counting fast at a
// million results.
//
// A run can be unlisted (migration 00008, moderation.go): the caller saves it with flags (the
// results server's reasons to doubt it), or the operator hides it. Unlisted runs are kept and
// GetRun returns them, but lists, searches, counts, groupings and figures leave them out, and
// the kept tables count listed runs only; the operator can approve a flagged run or return it
// to the flags' verdict. The store does not decide what is doubtful: it keeps the flags given.
//
// A server bounds what a store holds with OpenWith (connections, SQLite's page cache per
// connection). Saving on a full disk fails with ErrFull and writes nothing.
//
// Migrations are goose SQL files embedded from migrations/. A file named NNNNN_name.sql runs on
// both databases; where the SQL must differ (text search: an FTS5 table in SQLite, a generated
// tsvector column with a GIN index in PostgreSQL; identity columns) the same version exists
// twice, as NNNNN_name.sqlite.sql and NNNNN_name.postgres.sql, and each database is given only
// its own file (the other is excluded by name). Versions are shared, so both databases always sit at
// the same schema version.
//
// SQLite runs in WAL mode with synchronous=FULL, a busy timeout, foreign keys on and write
// transactions begun IMMEDIATE, so a committed run survives kill -9 and power loss and two
// writers wait for each other instead of failing.
package store
