package compare

import (
	"regexp"
	"strings"

	"github.com/iomark/iomark/internal/refdata"
)

// The board table is refdata's (canonical names, the wordings sources use, each board's
// family): this file only maps what a record says to it. Every caller that groups boards —
// the site's rankings, `iomark compare`, the exports — asks here.

// revision is the revision suffix a Raspberry Pi's device tree model carries ("Raspberry Pi 4
// Model B Rev 1.4"): the same board, whatever its revision.
var revision = regexp.MustCompile(`(?i)\s+rev\s+[0-9.]+$`)

// plus is how a Raspberry Pi's firmware writes "+" in the model it puts in the device tree
// ("Raspberry Pi 3 Model B Plus Rev 1.3", "Raspberry Pi Compute Module 3 Plus Rev 1.0") where
// the product is the "Raspberry Pi 3 Model B+".
var plus = regexp.MustCompile(`(?i)\s+plus$`)

// Board returns the canonical board name (refdata.Boards) of a board model as a record's host
// or a source words it; ok is false for a board the table does not know.
func Board(model string) (name string, ok bool) {
	m := strings.Join(strings.Fields(model), " ")
	if m == "" {
		return "", false
	}
	if name, ok := refdata.CanonicalBoard(m); ok {
		return name, true
	}
	m = plus.ReplaceAllString(revision.ReplaceAllString(m, ""), "+")
	if name, ok := refdata.CanonicalBoard(m); ok {
		return name, true
	}
	// A model that starts with a canonical name and adds memory or a variant ("Raspberry Pi
	// Compute Module 4 Lite"): the longest canonical name it starts with.
	lower := strings.ToLower(m)
	best := ""
	for _, b := range refdata.Boards() {
		n := strings.ToLower(b.Name)
		rest := strings.TrimPrefix(lower, n)
		if rest != lower && strings.HasPrefix(rest, " ") && !strings.HasPrefix(rest, " plus") && len(b.Name) > len(best) {
			best = b.Name
		}
	}
	return best, best != ""
}

// Family returns the board family a board ranks in (refdata.Families): a known board's, else
// PCs for an x86 kernel (a desktop names itself by its maker's model, "Dell Inc. OptiPlex
// 7070") and Other SBCs for anything else. x86 single-board computers the table names (the
// ODROID-H2) stay SBCs.
func Family(model, arch string) string {
	if b, ok := Board(model); ok {
		if f, ok := refdata.BoardFamily(b); ok {
			return f
		}
	}
	if x86Arch(arch) {
		return refdata.FamilyPC
	}
	return refdata.FamilyOtherSBC
}

// KnownFamily is Family for a board the table knows, and "" for any other: published results
// are matched only on known boards.
func KnownFamily(model string) string {
	b, ok := Board(model)
	if !ok {
		return ""
	}
	f, _ := refdata.BoardFamily(b)
	return f
}

// x86Arch reports whether a kernel machine name (uname -m) is an x86 one.
func x86Arch(arch string) bool {
	switch arch {
	case "x86_64", "i386", "i486", "i586", "i686":
		return true
	}
	return false
}

// familyShort names a family in a sentence: "the Pi 4" for a Raspberry Pi family.
func familyShort(family string) string {
	switch family {
	case refdata.FamilyPi5, refdata.FamilyPi4, refdata.FamilyPi3:
		return "the " + family
	case refdata.FamilyPiZero21:
		return "the Pi Zero, 2 and 1"
	case refdata.FamilyPC:
		return "PCs"
	}
	return "other single-board computers"
}
