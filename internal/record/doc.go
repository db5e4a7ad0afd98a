// Package record defines the result record: the versioned JSON shape of one `iomark run`,
// the same in the local database, the results server's API and every export
// (docs/result-record.md). It is the bottom data package of a run: it holds
// the types (findings and warnings included), identity keys and the decoder of stored
// records.
//
// It measures, probes, judges, stores and prints nothing, and imports no database code
// (cmd/iomark's dependency test checks it): the mapping to the store's rows is
// internal/runstore's, the findings are made by internal/advice.
package record
