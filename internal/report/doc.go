// Package report turns result records (internal/record) into output for people and programs:
// the terminal summary, `iomark compare`, and the exports of `iomark export` (json, csv, md,
// html, png, svg), one file per format behind the Exporter interface. It also prints what
// `iomark verify` and `iomark info --geometry` found (verify.go, geometry.go, from
// internal/flash's results).
//
// It owns presentation only: it never measures, probes, stores or changes a record, and it
// never converts a figure into a unit its source did not use without saying so. MB/s means
// 10^6 bytes per second everywhere (docs/decisions.md, "Units"); MiB/s, KiB/s and IOPS are
// named as such. Published reference figures come from internal/refdata as the caller passes
// them; the mapping from their columns to iomark tests is a table in published.go.
package report
