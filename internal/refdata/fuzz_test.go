package refdata

import (
	"bytes"
	"testing"
)

// FuzzParse checks that no input makes the loader panic and that every row it accepts keeps
// Printed and Value consistent.
func FuzzParse(f *testing.F) {
	f.Add(publishedCSV)
	f.Add(publishedCSV[:200])
	f.Fuzz(func(t *testing.T, data []byte) {
		results, err := parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range results {
			if (r.DDWriteMBps.Printed == "") != (r.DDWriteMBps.Value == nil) {
				t.Fatalf("row %d: printed %q, value %v", r.Row, r.DDWriteMBps.Printed, r.DDWriteMBps.Value)
			}
		}
	})
}
