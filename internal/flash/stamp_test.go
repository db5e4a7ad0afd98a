package flash

import (
	"bytes"
	"testing"
)

func TestStampRoundTrip(t *testing.T) {
	const nonce = 0x1234_5678_9abc_def0
	b := make([]byte, 4096)
	stampBlock(b, 1<<30, nonce, 3)
	for i := 0; i < len(b); i += SectorBytes {
		pos := int64(1<<30 + i)
		st, off, gen := checkSector(b[i:], pos, nonce)
		if st != SectorGood || off != pos || gen != 3 {
			t.Fatalf("sector %d: %v at %d gen %d, want good", i/SectorBytes, st, off, gen)
		}
	}
	if bytes.Equal(b[:SectorBytes], b[SectorBytes:2*SectorBytes]) {
		t.Error("two sectors of one block are equal")
	}
	// The same block read at another position: moved, naming where it belonged.
	if st, off, _ := checkSector(b, 4096, nonce); st != SectorMoved || off != 1<<30 {
		t.Errorf("read elsewhere: %v %d, want moved from %d", st, off, 1<<30)
	}
	// Another run's nonce: foreign.
	if st, _, _ := checkSector(b, 1<<30, nonce+1); st != SectorForeign {
		t.Errorf("other nonce: %v, want foreign", st)
	}
	// One flipped bit in the payload or the header: corrupt.
	for _, at := range []int{0, 17, 300, 511} {
		c := bytes.Clone(b[:SectorBytes])
		c[at] ^= 4
		st, _, _ := checkSector(c, 1<<30, nonce)
		if at >= offNonce && at < offNonce+8 {
			continue // a flipped nonce bit reads as foreign, which is also bad
		}
		if st != SectorCorrupt {
			t.Errorf("bit flipped at byte %d: %v, want corrupted", at, st)
		}
	}
}

func TestCheckSectorUniform(t *testing.T) {
	if st, _, _ := checkSector(make([]byte, SectorBytes), 0, 1); st != SectorZeros {
		t.Errorf("zeros: %v", st)
	}
	if st, _, _ := checkSector(bytes.Repeat([]byte{0xff}, SectorBytes), 0, 1); st != SectorOnes {
		t.Errorf("ones: %v", st)
	}
	if st, _, _ := checkSector([]byte{1, 2}, 0, 1); st != SectorForeign {
		t.Errorf("short: %v", st)
	}
}

func FuzzCheckSector(f *testing.F) {
	good := make([]byte, SectorBytes)
	stampSector(good, 512, 99, 1)
	f.Add(good, int64(512), uint64(99))
	f.Add(make([]byte, SectorBytes), int64(0), uint64(0))
	f.Add([]byte{0xff}, int64(-1), uint64(1))
	f.Fuzz(func(t *testing.T, s []byte, pos int64, nonce uint64) {
		st, off, _ := checkSector(s, pos, nonce)
		if st == SectorGood && off != pos {
			t.Fatalf("good sector with offset %d at %d", off, pos)
		}
		if len(s) >= SectorBytes {
			hasNonce(s, nonce)
			// Whatever the bytes, a stamp written over them checks good.
			c := bytes.Clone(s[:SectorBytes])
			stampSector(c, pos, nonce, 7)
			if st, _, gen := checkSector(c, pos, nonce); st != SectorGood || gen != 7 {
				t.Fatalf("fresh stamp reads %v gen %d", st, gen)
			}
		}
	})
}
