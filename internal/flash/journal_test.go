package flash

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// recoveryBytes builds a recovery file as writeRecoveryFile does.
func recoveryBytes(t testing.TB, sizeBytes int64, blocks []saved) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "r.bin")
	if err := writeRecoveryFile(path, sizeBytes, blocks); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// withCRC appends the CRC-32C a recovery file ends with.
func withCRC(body []byte) []byte {
	return binary.LittleEndian.AppendUint32(append([]byte(nil), body...), crc32.Checksum(body, castagnoli))
}

func TestRecoveryFileRoundTrip(t *testing.T) {
	blocks := []saved{{off: 4096, data: bytes.Repeat([]byte{1}, 4096)}, {off: 0, data: bytes.Repeat([]byte{2}, 8192)}}
	size, got, err := readRecoveryFile(recoveryBytes(t, 1<<20, blocks))
	if err != nil || size != 1<<20 || len(got) != 2 || got[0].off != 4096 || !bytes.Equal(got[1].data, blocks[1].data) {
		t.Fatalf("read back %d %+v %v", size, got, err)
	}
	// An entry whose offset plus length wraps past 2^64 must not pass as inside the device.
	var body []byte
	body = append(body, recoveryMagic...)
	body = binary.LittleEndian.AppendUint32(body, recoveryVersion)
	body = binary.LittleEndian.AppendUint64(body, 1<<20)
	body = binary.LittleEndian.AppendUint32(body, 1)
	body = binary.LittleEndian.AppendUint64(body, ^uint64(0)-511)
	body = binary.LittleEndian.AppendUint32(body, 512)
	body = append(body, make([]byte, 512)...)
	if _, _, err := readRecoveryFile(withCRC(body)); err == nil {
		t.Error("an entry at offset 2^64-512 was accepted")
	}
}

// FuzzReadRecoveryFile: `iomark verify --restore FILE` reads a file the user names. No input
// panics, and what it accepts lies inside the device it claims, in whole sectors.
func FuzzReadRecoveryFile(f *testing.F) {
	f.Add(recoveryBytes(f, 1<<20, []saved{{off: 4096, data: make([]byte, 4096)}}))
	f.Add(recoveryBytes(f, 8<<20, nil))
	f.Add([]byte("IOMARK-VERIFY-RESTORE\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		size, blocks, err := readRecoveryFile(data)
		if err != nil {
			return
		}
		for _, b := range blocks {
			if b.off < 0 || b.off%SectorBytes != 0 || len(b.data) == 0 || len(b.data)%SectorBytes != 0 || b.off+int64(len(b.data)) > size {
				t.Fatalf("accepted block at %d of %d bytes on a %d-byte device", b.off, len(b.data), size)
			}
		}
	})
}

// FuzzParseOwner: a fill directory's owner file is read from whatever filesystem is
// verified. No input panics; what parses prints back to the same owner.
func FuzzParseOwner(f *testing.F) {
	f.Add("1234 0b1e5c2a-3f4d-4e5f-8a9b-0c1d2e3f4a5b 98765\n")
	f.Add("")
	f.Add("-1 x y")
	f.Fuzz(func(t *testing.T, s string) {
		o, ok := parseOwner(s)
		if !ok {
			return
		}
		if o.pid <= 0 {
			t.Fatalf("pid %d accepted from %q", o.pid, s)
		}
		if o2, ok := parseOwner(o.String()); !ok || o2 != o {
			t.Fatalf("%q -> %+v -> %q -> %+v", s, o, o.String(), o2)
		}
	})
}
