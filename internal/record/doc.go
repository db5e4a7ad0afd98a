// Package record defines the result record: the versioned JSON shape of one `iomark run`,
// the same in the local database, the results server's API and every export
// (docs/result-record.md). It holds every type of that shape (what the probe found, the
// drive's health, the tests with their series, findings and warnings), identity keys and the
// decoder of stored records.
//
// It is a leaf: it imports no iomark package but internal/units (internal/archtest checks it),
// so the record's shape moves only when this package does. Packages probe, health and engine
// fill its types in and name them by aliases. It measures, probes, judges, stores and prints
// nothing, and imports no database code (cmd/iomark's dependency test checks it): the mapping
// to the store's rows is internal/runstore's, the findings are made by internal/advice.
package record
