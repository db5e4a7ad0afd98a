package report

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/iomark/iomark/internal/record"
)

// writeJSON writes the record exactly, indented: one run as an object that record.Decode
// reads back, several as an array of such objects.
func writeJSON(w io.Writer, runs []*record.Run, _ Options) error {
	var v any = runs
	if len(runs) == 1 {
		v = runs[0]
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("json export: encoding the record: %w", err)
	}
	if _, err := w.Write(append(data, '\n')); err != nil {
		return fmt.Errorf("json export: %w", err)
	}
	return nil
}
