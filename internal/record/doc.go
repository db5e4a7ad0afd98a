// Package record defines the result record: the versioned JSON shape of one `iomark run`,
// the same in the local database, the results server's API and every export (DESIGN.md,
// "Result record"; docs/result-record.md). It holds types, identity keys and the mapping to
// the store's indexed columns; it measures, probes and prints nothing.
package record
