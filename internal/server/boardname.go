package server

import (
	"regexp"

	"github.com/iomark/iomark/internal/refdata"
)

// revSuffix is the revision a Raspberry Pi's device tree adds to its model ("Raspberry Pi 4
// Model B Rev 1.4"); the run keeps it (board_revision too), pages name the board without it.
var revSuffix = regexp.MustCompile(`(?i)\s+rev\s+[0-9.]+$`)

var plusWord = regexp.MustCompile(`(?i)\s+plus$`)

// displayBoard is the one name pages give a board: the canonical name (refdata.CanonicalBoard)
// of a stored board, its revision dropped; a board refdata does not know is shown as stored.
func displayBoard(stored string) string {
	if name, ok := refdata.CanonicalBoard(stored); ok {
		return name
	}
	// The device tree of a Pi 3 B+ says "Raspberry Pi 3 Model B Plus Rev 1.3".
	bare := plusWord.ReplaceAllString(revSuffix.ReplaceAllString(stored, ""), "+")
	if name, ok := refdata.CanonicalBoard(bare); ok {
		return name
	}
	return stored
}
