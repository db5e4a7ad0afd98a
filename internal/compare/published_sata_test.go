package compare

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// TestStorageClassesSATA: probe now tells SATA SSDs from HDDs; published sata rows, which do
// not, stay the peers of all three classes.
func TestStorageClassesSATA(t *testing.T) {
	for _, c := range []string{probe.ClassSATA, probe.ClassSATASSD, probe.ClassSATAHDD} {
		r := &record.Run{}
		r.Device = &probe.Device{Class: c}
		if got := storageClasses(r); len(got) != 1 || got[0] != "sata" {
			t.Errorf("%s: storage classes %v, want [sata]", c, got)
		}
	}
}
