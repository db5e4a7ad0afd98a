// Package flash answers two questions about flash storage that benchmarks cannot: is the
// drive's capacity real, and where are its erase blocks.
//
// Capacity (probe.go, fill.go): a block device is probed in the manner of f3probe — sectors
// stamped with their offset, a per-run nonce and a checksum are written at chosen offsets,
// read back past every cache, and the last good byte is found by search, never by writing the
// whole device; every block overwritten is saved first and written back (journal.go) unless
// the caller asked for a destructive probe. A directory is checked in the manner of f3write
// and f3read: its free space is filled with stamped files that are read back and removed.
// A full verify (full.go, scan.go) reads every block after the probe, with ddrescue's error
// handling (skip ahead, read back, trim the edges), and maps the read speed by position and
// its slow zones; in rewrite mode each request goes through the journal, one at a time.
//
// Geometry (geometry.go): the erase block / allocation unit is estimated from read timing
// across candidate boundaries, flashbench's -a method, with a confidence, or "unknown".
//
// It owns the methods and their results (result.go). It must not decide whether a device
// may be written — the caller checks and confirms (blockdev_linux.go gives it the facts and
// refuses a mounted, partition, read-only or held device) — print anything, or keep results:
// the CLI wires it to the user, the store keeps results, advice turns them into findings.
package flash
