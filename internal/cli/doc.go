// Package cli wires iomark's subcommands (one file each) to the packages that do the work.
// It parses flags, opens the results database named by the one --db flag (db.go), picks
// human or JSON output, draws progress on stderr and maps errors to exit statuses.
//
// It holds no measurement, probing, judging, storage or formatting logic of its own: a
// target's facts (identity, link, ceiling, health, sensors) and its findings are gathered by
// internal/target, a run is internal/runner's (it returns the finished record), saved runs are found and kept by
// internal/runstore, uploads are internal/upload's, verify and the erase block estimate are
// internal/flash's, and what people read is internal/report's (run, info, job, list,
// compare, exports, verify, geometry); history's table is the one listing it prints itself,
// from the store's rows.
package cli
