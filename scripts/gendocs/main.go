// Command gendocs writes iomark's man pages and shell completions for the release archives and
// packages: go run ./scripts/gendocs DIR -> DIR/man/iomark*.1, DIR/completions/{iomark.bash,
// _iomark,iomark.fish}. The man pages are dated from SOURCE_DATE_EPOCH (the commit's time,
// set by scripts/release.sh), so two builds of one commit give the same bytes.
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/spf13/cobra/doc"

	"github.com/iomark/iomark/internal/cli"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gendocs:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 1 {
		return fmt.Errorf("usage: gendocs DIR")
	}
	dir := args[0]
	epoch, err := strconv.ParseInt(os.Getenv("SOURCE_DATE_EPOCH"), 10, 64)
	if err != nil {
		return fmt.Errorf("SOURCE_DATE_EPOCH=%q is not a Unix time: set it to the commit's time (git log -1 --format=%%ct)", os.Getenv("SOURCE_DATE_EPOCH"))
	}
	date := time.Unix(epoch, 0).UTC()
	root := cli.Command()
	root.DisableAutoGenTag = true // the tag carries no date, but says nothing a reader needs
	man, comp := filepath.Join(dir, "man"), filepath.Join(dir, "completions")
	for _, d := range []string{man, comp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	header := &doc.GenManHeader{Title: "IOMARK", Section: "1", Date: &date, Source: "iomark " + cli.Version(), Manual: "iomark manual"}
	if err := doc.GenManTree(root, header, man); err != nil {
		return fmt.Errorf("man pages: %w", err)
	}
	for _, c := range []struct {
		name string
		gen  func(string) error
	}{
		{"iomark.bash", func(p string) error { return root.GenBashCompletionFileV2(p, true) }},
		{"_iomark", root.GenZshCompletionFile},
		{"iomark.fish", func(p string) error { return root.GenFishCompletionFile(p, true) }},
	} {
		if err := c.gen(filepath.Join(comp, c.name)); err != nil {
			return fmt.Errorf("completion %s: %w", c.name, err)
		}
	}
	return nil
}
