// Package refdata owns the published reference results iomark compares against: storage
// benchmark figures transcribed from blog posts, a wiki, GitHub repositories and issue threads
// (published-results.csv, embedded), with where each came from in SOURCES.md; and the tables
// that clean them: one canonical name per board with the wordings sources use mapped to it
// (boards.go), each board's family, and each storage class's iomark device class (classes.go).
//
// Every figure is kept twice: as printed in its source (Figure.Printed, trailing zeros and
// all) and parsed (Figure.Value, nil where the source printed no number). Nothing here is
// measured, converted or estimated, and the package must not "fix" a value: a unit the source
// did not print stays unstated (see the notes of each row). It does no I/O beyond reading its
// embedded file and imports nothing of iomark.
package refdata
