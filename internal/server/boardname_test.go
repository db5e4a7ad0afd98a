package server

import "testing"

// TestDisplayBoard: pages name a board as the rankings group it (compare.Board, tested
// there) and show a board the table does not know as stored.
func TestDisplayBoard(t *testing.T) {
	for in, want := range map[string]string{
		"Raspberry Pi 4 Model B Rev 1.4":     "Raspberry Pi 4 Model B",
		"Raspberry Pi Compute Module 4 Lite": "Raspberry Pi Compute Module 4",
		"Some Other Board Rev 1.0":           "Some Other Board Rev 1.0",
		"":                                   "",
	} {
		if got := displayBoard(in); got != want {
			t.Errorf("displayBoard(%q) = %q, want %q", in, got, want)
		}
	}
}
