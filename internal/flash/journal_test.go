package flash

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// journalBytes builds a journal as a probe does: a header, then entries appended and synced.
func journalBytes(t testing.TB, sizeBytes int64, blocks []saved) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "j.bin")
	jf, err := createJournal(path, JournalHeader{SizeBytes: sizeBytes, Nonce: 7, BlockBytes: 4096, Identity: "sd:1b:sm:ec2qt|ab12|1000", Device: "mmcblk0", CreatedAt: time.Unix(1e9, 0)})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		if err := jf.append(b.off, b.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := jf.close(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestJournalRoundTrip(t *testing.T) {
	blocks := []saved{{off: 4096, data: bytes.Repeat([]byte{1}, 4096)}, {off: 0, data: bytes.Repeat([]byte{2}, 8192)}}
	data := journalBytes(t, 1<<20, blocks)
	c, err := ReadJournal(data)
	if err != nil || c.Header.SizeBytes != 1<<20 || c.Header.Nonce != 7 || c.Header.Device != "mmcblk0" || c.Header.Identity != "sd:1b:sm:ec2qt|ab12|1000" ||
		c.Blocks() != 2 || c.entries[0].off != 4096 || !bytes.Equal(c.entries[1].data, blocks[1].data) || c.TornBytes != 0 {
		t.Fatalf("read back %+v %v", c, err)
	}
	// A crash while the last entry was appended (before its group was written): that entry
	// is dropped, the others are kept.
	for cut := 1; cut < 8192+20; cut += 1000 {
		c, err := ReadJournal(data[:len(data)-cut])
		if err != nil || c.Blocks() != 1 || c.TornBytes != int64(8192+20-cut) {
			t.Fatalf("cut %d bytes: %v blocks, torn %v, %v", cut, c.Blocks(), c.TornBytes, err)
		}
	}
	// A bit flipped in an entry's data ends the journal there: what follows is not trusted.
	bad := bytes.Clone(data)
	bad[len(data)-8192-4-20+100] ^= 1
	if c, err := ReadJournal(bad); err != nil || c.Blocks() != 1 {
		t.Fatalf("flipped bit: %v, %v", c, err)
	}
	// Damage followed by more than a crash can tear is refused.
	big := make([]saved, 0, 1400)
	for i := 0; i < 1400; i++ {
		big = append(big, saved{off: int64(i) * 4096, data: make([]byte, 4096)})
	}
	data = journalBytes(t, 8<<20, big)
	data[len(journalMagic)+60] ^= 1 // inside the first entry
	if _, err := ReadJournal(data); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damage before 5.8 MB of entries: %v", err)
	}
	// An entry whose offset plus length wraps past 2^64 must not pass as inside the device.
	data = journalBytes(t, 1<<20, nil)
	var e []byte
	e = binary.LittleEndian.AppendUint32(e, entryMagic)
	e = binary.LittleEndian.AppendUint64(e, ^uint64(0)-511)
	e = binary.LittleEndian.AppendUint32(e, 512)
	e = append(e, make([]byte, 512)...)
	e = binary.LittleEndian.AppendUint32(e, 0)
	if c, err := ReadJournal(append(data, e...)); err != nil || c.Blocks() != 0 {
		t.Errorf("an entry at offset 2^64-512: %v %v", c, err)
	}
	// A journal cut inside its header: stopped before the first write.
	for _, n := range []int{10, len(journalMagic) + 2, len(journalMagic) + 30, len(data) - 1} {
		if _, err := ReadJournal(data[:n]); err == nil || !strings.Contains(err.Error(), "incomplete") {
			t.Errorf("header cut at %d bytes: %v", n, err)
		}
	}
}

// FuzzReadJournal: `iomark verify --restore FILE` reads a file the user names. No input
// panics, and what it accepts lies inside the device it claims, in whole sectors.
func FuzzReadJournal(f *testing.F) {
	f.Add(journalBytes(f, 1<<20, []saved{{off: 4096, data: make([]byte, 4096)}}))
	f.Add(journalBytes(f, 8<<20, nil))
	f.Add([]byte("IOMARK-VERIFY-JOURNAL\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ReadJournal(data)
		if err != nil {
			return
		}
		for _, b := range c.entries {
			if b.off < 0 || b.off%SectorBytes != 0 || len(b.data) == 0 || len(b.data)%SectorBytes != 0 || b.off+int64(len(b.data)) > c.Header.SizeBytes {
				t.Fatalf("accepted block at %d of %d bytes on a %d-byte device", b.off, len(b.data), c.Header.SizeBytes)
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
