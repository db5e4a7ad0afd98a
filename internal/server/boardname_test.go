package server

import "testing"

func TestDisplayBoard(t *testing.T) {
	for in, want := range map[string]string{
		"Raspberry Pi 4 Model B Rev 1.4":        "Raspberry Pi 4 Model B",
		"Raspberry Pi 4 Model B Rev 1.5":        "Raspberry Pi 4 Model B",
		"raspberry pi 5 model b rev 1.0":        "Raspberry Pi 5",
		"Raspberry Pi 5":                        "Raspberry Pi 5",
		"Pi 4":                                  "Raspberry Pi 4 Model B",
		"Raspberry Pi 3 Model B Plus Rev 1.3":   "Raspberry Pi 3 Model B+",
		"Raspberry Pi Compute Module 4 Rev 1.0": "Raspberry Pi Compute Module 4",
		"Some Other Board":                      "Some Other Board",
		"":                                      "",
	} {
		if got := displayBoard(in); got != want {
			t.Errorf("displayBoard(%q) = %q, want %q", in, got, want)
		}
	}
}
