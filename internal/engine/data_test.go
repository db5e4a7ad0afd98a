package engine

import (
	"bytes"
	"compress/flate"
	"testing"
)

// The data a job writes must neither compress nor repeat: a compressing or deduplicating
// controller gets no free ride.
func TestWriteDataIncompressibleAndUnique(t *testing.T) {
	buf := make([]byte, 64<<10)
	fillRandom(buf, 42)

	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	w.Write(buf)
	w.Close()
	if ratio := float64(z.Len()) / float64(len(buf)); ratio < 0.99 {
		t.Fatalf("random fill compressed to %.1f%% of its size; want no compression", ratio*100)
	}

	seen := map[string]int{}
	for write := uint64(0); write < 64; write++ {
		stamp(buf, write, 7)
		for off := 0; off < len(buf); off += stampStride {
			s := string(buf[off : off+stampStride])
			if prev, dup := seen[s]; dup {
				t.Fatalf("sector %d of write %d repeats an earlier sector (#%d)", off/stampStride, write, prev)
			}
			seen[s] = len(seen)
		}
	}
}

func TestFillRandomSeedsDiffer(t *testing.T) {
	a, b := make([]byte, 4096), make([]byte, 4096)
	fillRandom(a, 1)
	fillRandom(b, 2)
	if bytes.Equal(a, b) {
		t.Fatal("different seeds gave the same data")
	}
	fillRandom(b, 1)
	if !bytes.Equal(a, b) {
		t.Fatal("the same seed gave different data")
	}
}
