package server

import "github.com/iomark/iomark/internal/compare"

// displayBoard is the one name pages give a board: the canonical name compare.Board gives the
// stored board (what the rankings group it under), its revision dropped; a board the table
// does not know is shown as stored.
func displayBoard(stored string) string {
	if name, ok := compare.Board(stored); ok {
		return name
	}
	return stored
}
