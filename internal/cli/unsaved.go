package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// unsavedDir is where a record that could not be saved in the results database is kept:
// $XDG_STATE_HOME/iomark/unsaved, or ~/.local/state/iomark/unsaved (the XDG base directory
// spec's place for state that should outlive a run but is not the user's data).
func unsavedDir() (string, error) {
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" || !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no home directory to keep the record in (%v): set XDG_STATE_HOME", err)
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "iomark", "unsaved"), nil
}

// keepUnsaved writes rec as JSON to unsavedDir()/<id>.json (atomically, mode 0600: it names
// the user's hardware) and returns the path.
func keepUnsaved(rec *record.Run) (string, error) {
	dir, err := unsavedDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("creating %s: %w", dir, err)
	}
	raw, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return "", fmt.Errorf("encoding run %s: %w", rec.ID, err)
	}
	path := filepath.Join(dir, rec.ID+".json")
	tmp, err := os.CreateTemp(dir, ".unsaved-*")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(raw, '\n')); err != nil {
		tmp.Close()
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, nil
}

// saveFailed is the error of a run whose record could not be saved: where it is kept
// instead and the command that saves it later, or, when even that failed, both reasons.
func saveFailed(rec *record.Run, dsn string, saveErr error) error {
	path, err := keepUnsaved(rec)
	if err != nil {
		return fmt.Errorf("the run was measured but not saved (%v), and keeping its record failed too (%v): `iomark show` cannot find it; rerun with --json > FILE to keep one", saveErr, err)
	}
	return fmt.Errorf("the run was measured but not saved (%v); its record is kept in %s — save it with `%s`", saveErr, path, saveCommand(path, dsn))
}

// saveCommand is the command line that saves the record at path into the database dsn names
// (shown without its password).
func saveCommand(path, dsn string) string {
	c := "iomark save " + path
	if dsn != "" {
		c += " --db '" + store.Redact(dsn) + "'"
	}
	return c
}
