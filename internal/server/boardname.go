package server

import (
	"regexp"

	"github.com/iomark/iomark/internal/refdata"
)

// revSuffix is the revision a Raspberry Pi's device tree adds to its model ("Raspberry Pi 4
// Model B Rev 1.4"); the run keeps it (board_revision too), pages name the board without it.
var revSuffix = regexp.MustCompile(`(?i)\s+rev\s+[0-9.]+$`)

// displayBoard is the one name pages give a board: the canonical name (refdata.CanonicalBoard)
// of a stored board, its revision dropped; a board refdata does not know is shown as stored.
func displayBoard(stored string) string {
	if name, ok := refdata.CanonicalBoard(stored); ok {
		return name
	}
	if name, ok := refdata.CanonicalBoard(revSuffix.ReplaceAllString(stored, "")); ok {
		return name
	}
	return stored
}
