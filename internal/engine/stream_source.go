package engine

import (
	"encoding/binary"
	"io"
)

// streamPoolBytes is the random pool a stream source repeats, stamped so no sector repeats.
const streamPoolBytes = 16 << 20

// streamChunk is how much the source generates at a time.
const streamChunk = 64 << 10

// streamSource is an endless reader of the data the engine writes: ChaCha8 output that does
// not compress, with every 512-byte sector stamped with its position so none repeats and no
// deduplicating controller can fold two.
type streamSource struct {
	pool  []byte
	salt  uint64
	pos   int64 // of the next chunk
	chunk []byte
	rest  []byte // of the current chunk, not yet read
}

// NewStreamSource returns the data a network copy's sender sends: incompressible and never
// repeating at sector granularity, as the engine's own writes are.
func NewStreamSource() io.Reader {
	s := &streamSource{pool: make([]byte, streamPoolBytes), salt: newSeed(), chunk: make([]byte, streamChunk)}
	fillRandom(s.pool, s.salt)
	return s
}

func (s *streamSource) Read(p []byte) (int, error) {
	if len(s.rest) == 0 {
		at := int(s.pos % int64(len(s.pool)))
		copy(s.chunk, s.pool[at:at+streamChunk])
		for off := 0; off < streamChunk; off += stampStride {
			binary.LittleEndian.PutUint64(s.chunk[off:], uint64(s.pos+int64(off))/stampStride|1<<62)
			binary.LittleEndian.PutUint64(s.chunk[off+8:], s.salt)
		}
		s.pos += streamChunk
		s.rest = s.chunk
	}
	n := copy(p, s.rest)
	s.rest = s.rest[n:]
	return n, nil
}
