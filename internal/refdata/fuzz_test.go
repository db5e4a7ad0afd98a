package refdata

import (
	"bytes"
	"testing"
)

// FuzzParse checks that no input makes the loader panic and that every row it accepts keeps
// the rules parse promises: Printed and Value consistent in every figure, a source URL, a
// date or the reason for none, a canonical board.
func FuzzParse(f *testing.F) {
	csv := sourceCSV(f)
	f.Add(csv)
	f.Add(csv[:200])
	f.Add(csv[:bytes.IndexByte(csv, '\n')+1])
	f.Fuzz(func(t *testing.T, data []byte) {
		results, err := parse(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, r := range results {
			for _, c := range columns {
				if c.fig == nil {
					continue
				}
				fig := *c.fig(&r)
				if (fig.Printed == "") != (fig.Value == nil) {
					t.Fatalf("row %d %s: printed %q, value %v", r.Row, c.name, fig.Printed, fig.Value)
				}
			}
			if r.SourceURL == "" || (r.SourceDate == "" && r.DateNote == "") {
				t.Fatalf("row %d accepted without a URL or a date or its reason", r.Row)
			}
			if _, ok := BoardFamily(r.Board); !ok {
				t.Fatalf("row %d accepted with board %q", r.Row, r.Board)
			}
		}
	})
}
