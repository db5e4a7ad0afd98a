package engine

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand/v2"
)

// stampStride is the spacing of the per-write stamp: every 512-byte sector of every write
// differs from every other one ever written, so no deduplicating controller can fold two of
// them, whatever its granularity.
const stampStride = 512

// newSeed returns a random seed for a run.
func newSeed() uint64 {
	var b [8]byte
	_, _ = crand.Read(b[:]) // never fails on Linux (getrandom)
	return binary.LittleEndian.Uint64(b[:])
}

// fillRandom fills b with ChaCha8 output: incompressible, and fast enough (~1 GB/s) to fill
// every buffer once before a job starts.
func fillRandom(b []byte, seed uint64) {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	binary.LittleEndian.PutUint64(key[8:], seed^0x9e3779b97f4a7c15)
	_, _ = rand.NewChaCha8(key).Read(b)
}

// stamp writes a 16-byte tag at the start of every sector of b: id (unique per write) and the
// sector index mixed with salt. It costs bs/512 small stores per write, no copy.
func stamp(b []byte, id, salt uint64) {
	for off := 0; off+16 <= len(b); off += stampStride {
		binary.LittleEndian.PutUint64(b[off:], id)
		binary.LittleEndian.PutUint64(b[off+8:], salt^uint64(off))
	}
}
