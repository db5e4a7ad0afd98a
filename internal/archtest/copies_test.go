package archtest

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"go/ast"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/refdata"
)

// Four facts have one home each, so a change to them is made once: the board families
// (internal/refdata's boards table), the published figure columns and what each compares with
// (internal/compare's published-column map, over refdata's CSV), a price per unit of a figure
// (compare.PerUnit, which PriceOf and every page and export use), and how a board's model, as
// its device tree words it, becomes a board of the table (compare.Board). A second copy drifts
// from the first; these checks find one in product code.

// copyRule is one fact with one home: where it may be written, and what marks a copy.
type copyRule struct {
	fact  string
	homes []string // directories (slash paths from the root) the fact lives in
	// find reports the copies of the fact in one parsed file: a line and what it holds.
	find func(fset *token.FileSet, f *ast.File) []string
}

func copyRules(t *testing.T, root string) []copyRule {
	t.Helper()
	columns := figureColumns(t, root)
	families := refdata.Families()
	return []copyRule{
		{
			fact:  "a board-family table",
			homes: []string{"internal/refdata"},
			// One family key is a value compared with; two in one file are a table of them.
			find: func(fset *token.FileSet, f *ast.File) []string {
				return literalsAmong(fset, f, families, 2)
			},
		},
		{
			fact:  "a published-figure column map",
			homes: []string{"internal/refdata", "internal/compare"},
			find: func(fset *token.FileSet, f *ast.File) []string {
				return literalsAmong(fset, f, columns, 2)
			},
		},
		{
			fact:  "a price-per-unit division",
			homes: []string{"internal/compare"},
			find:  priceDivisions,
		},
		{
			fact:  "a board-model rewrite",
			homes: []string{"internal/refdata", "internal/compare"},
			find:  boardModelRewrites,
		},
	}
}

// boardModelPattern marks a pattern that rewrites a board's model: one that strips the
// revision a Raspberry Pi's device tree appends ("Rev 1.4") or its "Plus".
var boardModelPattern = regexp.MustCompile(`(?i)\\s[+*]?\s*(rev|plus)\b`)

// boardModelRewrites lists the string literals that hold such a pattern.
func boardModelRewrites(fset *token.FileSet, f *ast.File) []string {
	var hits []string
	eachString(f, func(lit *ast.BasicLit, s string) {
		if boardModelPattern.MatchString(s) {
			hits = append(hits, fmt.Sprintf("line %d: %q", fset.Position(lit.Pos()).Line, s))
		}
	})
	return hits
}

// eachString calls fn with each string literal of f and its value.
func eachString(f *ast.File, fn func(lit *ast.BasicLit, value string)) {
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil {
				fn(lit, s)
			}
		}
		return true
	})
}

// figureColumns are the published CSV's figure columns: its header's names with a unit.
func figureColumns(t *testing.T, root string) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "internal/refdata/published-results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	header, err := csv.NewReader(bytes.NewReader(data)).Read()
	if err != nil {
		t.Fatalf("published-results.csv header: %v", err)
	}
	unit := regexp.MustCompile(`_(mbps|kbps|kbps_iozone|iops|score)$`)
	var out []string
	for _, c := range header {
		if unit.MatchString(c) {
			out = append(out, c)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d figure columns in the header %q: has the CSV's naming changed?", len(out), header)
	}
	return out
}

// literalsAmong lists the string literals of f that are among values, when at least min of
// the values stand in f.
func literalsAmong(fset *token.FileSet, f *ast.File, values []string, min int) []string {
	var hits []string
	seen := map[string]bool{}
	eachString(f, func(lit *ast.BasicLit, s string) {
		if slices.Contains(values, s) {
			seen[s] = true
			hits = append(hits, fmt.Sprintf("line %d: %q", fset.Position(lit.Pos()).Line, s))
		}
	})
	if len(seen) < min {
		return nil
	}
	return hits
}

var priceName = regexp.MustCompile(`(?i)price|usd`)

// priceDivisions lists the divisions whose dividend names a price: a price per MB/s or per
// IOPS worked out again.
func priceDivisions(fset *token.FileSet, f *ast.File) []string {
	var hits []string
	ast.Inspect(f, func(n ast.Node) bool {
		var x ast.Expr
		switch e := n.(type) {
		case *ast.BinaryExpr:
			if e.Op == token.QUO {
				x = e.X
			}
		case *ast.AssignStmt:
			if e.Tok == token.QUO_ASSIGN {
				x = e.Lhs[0]
			}
		}
		if x != nil && priceName.MatchString(exprText(x)) {
			hits = append(hits, fmt.Sprintf("line %d: %s / …", fset.Position(x.Pos()).Line, exprText(x)))
		}
		return true
	})
	return hits
}

// exprText is the names in an expression, joined: enough to tell what it holds.
func exprText(e ast.Expr) string {
	var names []string
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			names = append(names, id.Name)
		}
		return true
	})
	return strings.Join(names, ".")
}

// findCopies walks the product code below root (Go files but tests) and lists each copy of a
// fact outside its homes.
func findCopies(t *testing.T, root string, rules []copyRule) []string {
	t.Helper()
	var out []string
	files, fset := parseGoFiles(t, root)
	for _, gf := range files {
		if strings.HasSuffix(gf.path, "_test.go") {
			continue
		}
		for _, r := range rules {
			if inHome(gf.path, r.homes) {
				continue
			}
			for _, hit := range r.find(fset, gf.file) {
				out = append(out, fmt.Sprintf("%s: %s, %s (its one home: %s)", gf.path, r.fact, hit, strings.Join(r.homes, " or ")))
			}
		}
	}
	return out
}

func inHome(rel string, homes []string) bool {
	for _, h := range homes {
		if strings.HasPrefix(rel, h+"/") {
			return true
		}
	}
	return false
}

func TestOneCopyOfEachFact(t *testing.T) {
	for _, c := range findCopies(t, root, copyRules(t, root)) {
		t.Error(c)
	}
}

// The checks fire on a planted copy of each fact, and not on what is allowed: one family key
// compared with, a copy in a fact's home or in a test, a division that holds no price.
func TestOneCopyOfEachFactFindsAPlantedCopy(t *testing.T) {
	rules := copyRules(t, root)
	dir := t.TempDir()
	plant := func(rel, src string) {
		t.Helper()
		path := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plant("internal/server/family.go", `package server

var family = map[string]string{"Raspberry Pi 4 Model B": "Pi 4", "Raspberry Pi 5": "Pi 5"}
`)
	plant("internal/report/columns.go", `package report

var columns = map[string]string{"dd_write_mbps": "dd write", "hdparm_read_mbps": "hdparm -t"}
`)
	plant("bench/peers/price.go", `package main

func perMBps(priceUSD, mbps float64) float64 { return priceUSD / mbps }
`)
	plant("internal/server/allowed.go", `package server

func isPi4(family string) bool { return family == "Pi 4" }

func rate(bytes, seconds float64) float64 { return bytes / seconds }
`)
	plant("internal/compare/price.go", `package compare

func perUnit(price, figure float64) float64 { return price / figure }
`)
	plant("internal/server/boardname.go", `package server

import "regexp"

var revSuffix = regexp.MustCompile(`+"`(?i)\\s+rev\\s+[0-9.]+$`"+`)
`)
	plant("internal/server/family_test.go", `package server

var families = []string{"Pi 5", "Pi 4"}
`)
	got := findCopies(t, dir, rules)
	want := []string{
		`bench/peers/price.go: a price-per-unit division, line 3: priceUSD / … (its one home: internal/compare)`,
		`internal/report/columns.go: a published-figure column map, line 3: "dd_write_mbps" (its one home: internal/refdata or internal/compare)`,
		`internal/report/columns.go: a published-figure column map, line 3: "hdparm_read_mbps" (its one home: internal/refdata or internal/compare)`,
		`internal/server/boardname.go: a board-model rewrite, line 5: "(?i)\\s+rev\\s+[0-9.]+$" (its one home: internal/refdata or internal/compare)`,
		`internal/server/family.go: a board-family table, line 3: "Pi 4" (its one home: internal/refdata)`,
		`internal/server/family.go: a board-family table, line 3: "Pi 5" (its one home: internal/refdata)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("copies found:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
