package flash

import (
	"encoding/binary"
	"hash/crc32"
)

// SectorBytes is the unit every stamp covers.
const SectorBytes = 512

// Layout of a stamped sector (little-endian):
//
//	[0:8)    byte offset of this sector on the device (probe) or in the fill stream
//	[8:16)   nonce of the run that wrote it
//	[16:20)  generation: which write of the run (a probe round), so a rewrite is told apart
//	[20:24)  CRC-32C of bytes [0:20) and [24:512)
//	[24:512) payload: 61 pseudo-random words derived from nonce, offset and generation
//
// The payload makes every sector different and incompressible; the checksum catches flipped
// bits; the offset says where a sector that turns up somewhere else was meant to be.
const (
	offOffset  = 0
	offNonce   = 8
	offGen     = 16
	offCRC     = 20
	offPayload = 24
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// stampSector writes the stamp of (offset, nonce, gen) into s, which holds SectorBytes.
func stampSector(s []byte, offset int64, nonce uint64, gen uint32) {
	_ = s[SectorBytes-1]
	binary.LittleEndian.PutUint64(s[offOffset:], uint64(offset))
	binary.LittleEndian.PutUint64(s[offNonce:], nonce)
	binary.LittleEndian.PutUint32(s[offGen:], gen)
	seed := mix(nonce ^ uint64(offset)*0x9e3779b97f4a7c15 ^ uint64(gen)<<32)
	for i := offPayload; i+8 <= SectorBytes; i += 8 {
		seed += 0x9e3779b97f4a7c15
		binary.LittleEndian.PutUint64(s[i:], mix(seed))
	}
	binary.LittleEndian.PutUint32(s[offCRC:], sectorCRC(s))
}

// stampBlock stamps every sector of b, which starts at byte offset off.
func stampBlock(b []byte, off int64, nonce uint64, gen uint32) {
	for i := 0; i+SectorBytes <= len(b); i += SectorBytes {
		stampSector(b[i:i+SectorBytes], off+int64(i), nonce, gen)
	}
}

func sectorCRC(s []byte) uint32 {
	c := crc32.Update(0, castagnoli, s[:offCRC])
	return crc32.Update(c, castagnoli, s[offPayload:SectorBytes])
}

// mix is splitmix64's finaliser: a cheap, well-spread 64-bit hash.
func mix(x uint64) uint64 {
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// SectorState is what a sector read back holds, judged against what was written there.
type SectorState int

// Sector states.
const (
	SectorGood    SectorState = iota // our stamp, for this offset, intact
	SectorMoved                      // our stamp, intact, but for another offset: that write landed here
	SectorCorrupt                    // our nonce, but the checksum fails: bits changed
	SectorZeros                      // all zero bytes
	SectorOnes                       // all 0xff bytes (erased NAND)
	SectorForeign                    // anything else: not written by this run
)

// String names the state as reports print it.
func (s SectorState) String() string {
	switch s {
	case SectorGood:
		return "good"
	case SectorMoved:
		return "overwritten"
	case SectorCorrupt:
		return "corrupted"
	case SectorZeros:
		return "zeros"
	case SectorOnes:
		return "ones"
	}
	return "foreign"
}

// checkSector judges one sector s read at byte offset pos against a run's nonce. For
// SectorMoved and SectorGood it also returns the offset and generation in the stamp. It
// accepts any bytes: what comes back from a failing drive is arbitrary.
func checkSector(s []byte, pos int64, nonce uint64) (st SectorState, stampOffset int64, gen uint32) {
	if len(s) < SectorBytes {
		return SectorForeign, 0, 0
	}
	s = s[:SectorBytes]
	if binary.LittleEndian.Uint64(s[offNonce:]) != nonce {
		return uniform(s), 0, 0
	}
	if binary.LittleEndian.Uint32(s[offCRC:]) != sectorCRC(s) {
		return SectorCorrupt, 0, 0
	}
	stampOffset = int64(binary.LittleEndian.Uint64(s[offOffset:]))
	gen = binary.LittleEndian.Uint32(s[offGen:])
	if stampOffset != pos {
		return SectorMoved, stampOffset, gen
	}
	return SectorGood, stampOffset, gen
}

// uniform tells zeros and 0xff fill from other foreign content.
func uniform(s []byte) SectorState {
	first := s[0]
	if first != 0 && first != 0xff {
		return SectorForeign
	}
	for _, b := range s[1:] {
		if b != first {
			return SectorForeign
		}
	}
	if first == 0 {
		return SectorZeros
	}
	return SectorOnes
}

// hasNonce reports whether any sector of b carries the nonce: a block still holding a stamp
// of this run.
func hasNonce(b []byte, nonce uint64) bool {
	for i := 0; i+SectorBytes <= len(b); i += SectorBytes {
		if binary.LittleEndian.Uint64(b[i+offNonce:]) == nonce {
			return true
		}
	}
	return false
}
