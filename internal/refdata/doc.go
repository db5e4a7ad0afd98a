// Package refdata owns the published reference results iomark compares against: storage
// benchmark figures transcribed from blog posts and a wiki (published-results.csv, embedded),
// with where each came from in SOURCES.md.
//
// Every figure is kept twice: as printed in its source (Figure.Printed, trailing zeros and
// all) and parsed (Figure.Value, nil where the source printed no number). Nothing here is
// measured, converted or estimated, and the package must not "fix" a value: a unit the source
// did not print stays unstated (see the notes of each row). It does no I/O beyond reading its
// embedded file and imports nothing of iomark.
package refdata
