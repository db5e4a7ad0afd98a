package refdata

import (
	"strings"
	"testing"
)

func TestCanonicalBoard(t *testing.T) {
	tests := []struct {
		published, want string
		ok              bool
	}{
		{"Raspberry Pi 4 Model B", "Raspberry Pi 4 Model B", true},
		{"raspberry pi 4 model b", "Raspberry Pi 4 Model B", true}, // any case
		{"Raspberry  Pi 3B+", "Raspberry Pi 3 Model B+", true},     // spaces collapse
		{"Raspberry Pi 4*", "Raspberry Pi 4 Model B", true},
		{"Pi 5", "Raspberry Pi 5", true},
		{"Raspberry Pi 5 model B", "Raspberry Pi 5", true},
		{"CM4 Lite 4GiB model", "Raspberry Pi Compute Module 4", true},
		{"Rasbperry Pi 2 model B", "Raspberry Pi 2 Model B", true},
		{"Raspberry Pi (as published: Pi 4 named, USB 2.0 bus limits)", "", false}, // our old wording, not a source's
		{"Orange Pi 5", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := CanonicalBoard(tt.published)
		if got != tt.want || ok != tt.ok {
			t.Errorf("CanonicalBoard(%q) = %q, %v; want %q, %v", tt.published, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBoardFamily(t *testing.T) {
	tests := []struct{ board, want string }{
		{"Raspberry Pi 5", FamilyPi5},
		{"Raspberry Pi Compute Module 5", FamilyPi5},
		{"Raspberry Pi 4 Model B", FamilyPi4},
		{"Raspberry Pi Compute Module 4", FamilyPi4},
		{"Raspberry Pi 3 Model B+", FamilyPi3},
		{"Raspberry Pi Zero 2 W", FamilyPiZero21},
		{"Raspberry Pi 2 Model B", FamilyPiZero21},
		{"PC (x86)", FamilyPC},
	}
	for _, tt := range tests {
		if got, ok := BoardFamily(tt.board); !ok || got != tt.want {
			t.Errorf("BoardFamily(%q) = %q, %v; want %q", tt.board, got, ok, tt.want)
		}
	}
	if _, ok := BoardFamily("Pi 5"); ok {
		t.Error("BoardFamily accepted an alias; it takes canonical names only")
	}
}

// TestBoardTables: names are unique, every family is a known one, and no alias shadows or
// points outside the canonical names.
func TestBoardTables(t *testing.T) {
	fams := map[string]bool{}
	for _, f := range Families() {
		fams[f] = true
	}
	names := map[string]bool{}
	for _, b := range Boards() {
		if names[strings.ToLower(b.Name)] {
			t.Errorf("board %q listed twice", b.Name)
		}
		names[strings.ToLower(b.Name)] = true
		if !fams[b.Family] {
			t.Errorf("board %q has unknown family %q", b.Name, b.Family)
		}
	}
	for alias, name := range aliases {
		if alias != strings.ToLower(strings.Join(strings.Fields(alias), " ")) {
			t.Errorf("alias %q is not lower case with single spaces, so it can never match", alias)
		}
		if names[alias] {
			t.Errorf("alias %q is a canonical name", alias)
		}
		if _, ok := BoardFamily(name); !ok {
			t.Errorf("alias %q maps to %q, which is not canonical", alias, name)
		}
	}
}
