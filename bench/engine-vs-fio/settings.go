package main

import (
	"fmt"
	"os"
	"strings"
)

// restoreTo is how the bench puts back a machine setting it changed for its run (autogroup,
// -split-cpus, -halt-poll): it writes was, the file's old content, to path again, and says
// which setting (what) it could not put back.
func restoreTo(path, was, what string) func() error {
	was = strings.TrimSpace(was)
	return func() error {
		if err := os.WriteFile(path, []byte(was+"\n"), 0o644); err != nil {
			return fmt.Errorf("put %s back (%s = %s): %w", what, path, was, err)
		}
		return nil
	}
}
