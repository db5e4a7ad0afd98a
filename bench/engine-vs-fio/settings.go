package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// readSetting reads the machine setting at path, trimmed; here is false, with no error, where
// the file does not exist (the kernel or driver has no such setting).
func readSetting(path string) (was string, here bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", path, err)
	}
	return strings.TrimSpace(string(b)), true, nil
}

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
