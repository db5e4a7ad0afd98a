package flash

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"time"
)

// The write-ahead journal of a whole-disk verify. Every block's original content is appended
// to it, and the file synced, before the probe writes the group of blocks it belongs to, so
// whatever stops the run (kill -9, a crash, power loss) leaves every overwritten block in the
// file: `iomark verify --restore` writes them all back, newest first, as the probe's own
// restore does. A later write may only be cut short while it is not yet synced, and then its
// group was never written to the disk; such a torn tail is ignored.
//
// Layout: a header — magic, version, device size, the run's nonce, the probe's block size,
// the disk's identity, its kernel name at the time, the creation time (Unix seconds), and a
// CRC-32C of the header — then entries, each its magic, offset, length, bytes and a CRC-32C
// of the entry.
var journalMagic = []byte("IOMARK-VERIFY-JOURNAL\n")

const (
	journalVersion    = 2
	entryMagic        = 0x4c4e524a // "JRNL" little-endian
	entryHeaderBytes  = 4 + 8 + 4
	entryTrailerBytes = 4
	// maxJournalEntryBytes bounds one entry (the probe saves single blocks of at most 64 KiB).
	maxJournalEntryBytes = 1 << 20
	// maxUnsyncedBytes is the most the journal holds unsynced: a longer group is synced in
	// parts (each before any of its blocks is written), so a crash tears at most this much
	// and one entry off the end. More than that after a damaged entry is damage.
	maxUnsyncedBytes = 4 << 20
)

// JournalHeader is what a journal says about the run that wrote it.
type JournalHeader struct {
	SizeBytes  int64
	Nonce      uint64
	BlockBytes int
	// Identity names the disk (its serial number's hash and size, or its backing file);
	// the caller computes it, flash compares it.
	Identity  string
	Device    string // kernel name when the journal was made: sdb, mmcblk0, loop3
	CreatedAt time.Time
}

func (h *JournalHeader) encode() []byte {
	var b []byte
	b = append(b, journalMagic...)
	b = binary.LittleEndian.AppendUint32(b, journalVersion)
	b = binary.LittleEndian.AppendUint64(b, uint64(h.SizeBytes))
	b = binary.LittleEndian.AppendUint64(b, h.Nonce)
	b = binary.LittleEndian.AppendUint32(b, uint32(h.BlockBytes))
	b = appendString(b, h.Identity)
	b = appendString(b, h.Device)
	b = binary.LittleEndian.AppendUint64(b, uint64(h.CreatedAt.Unix()))
	return binary.LittleEndian.AppendUint32(b, crc32.Checksum(b, castagnoli))
}

func appendString(b []byte, s string) []byte {
	if len(s) > 4096 {
		s = s[:4096]
	}
	b = binary.LittleEndian.AppendUint16(b, uint16(len(s)))
	return append(b, s...)
}

// journalFile appends entries to a journal on disk.
type journalFile struct {
	path     string
	f        *os.File
	w        *bufio.Writer
	unsynced int64
	bytes    int64
	header   int64 // bytes of the header: what reset keeps
	// pending is set by a full scan while the one request its journal holds is not back.
	pending bool
}

// createJournal makes the journal at path (which must not exist) and syncs its header and
// the directory entry: from then on a crash leaves a journal a restore can read.
func createJournal(path string, h JournalHeader) (*journalFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("creating the journal: %w — choose a new file on another drive (iomark verify --journal FILE)", err)
	}
	hdr := h.encode()
	_, err = f.Write(hdr)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = syncDir(filepath.Dir(path))
	}
	if err != nil {
		f.Close()
		os.Remove(path)
		return nil, fmt.Errorf("writing the journal %s: %w", path, err)
	}
	return &journalFile{path: path, f: f, w: bufio.NewWriterSize(f, 1<<20), bytes: int64(len(hdr)), header: int64(len(hdr))}, nil
}

// append adds one entry; it reaches the file by the next sync.
func (jf *journalFile) append(off int64, data []byte) error {
	var hdr [entryHeaderBytes]byte
	binary.LittleEndian.PutUint32(hdr[0:], entryMagic)
	binary.LittleEndian.PutUint64(hdr[4:], uint64(off))
	binary.LittleEndian.PutUint32(hdr[12:], uint32(len(data)))
	crc := crc32.Update(crc32.Checksum(hdr[:], castagnoli), castagnoli, data)
	jf.w.Write(hdr[:])
	jf.w.Write(data)
	if err := binary.Write(jf.w, binary.LittleEndian, crc); err != nil {
		return fmt.Errorf("writing the journal %s: %w", jf.path, err)
	}
	n := int64(entryHeaderBytes + len(data) + entryTrailerBytes)
	jf.unsynced += n
	jf.bytes += n
	if jf.unsynced >= maxUnsyncedBytes-maxJournalEntryBytes {
		return jf.sync()
	}
	return nil
}

// sync makes every appended entry durable.
func (jf *journalFile) sync() error {
	if jf.unsynced == 0 {
		return nil
	}
	err := jf.w.Flush()
	if err == nil {
		err = jf.f.Sync()
	}
	if err != nil {
		return fmt.Errorf("writing the journal %s: %w", jf.path, err)
	}
	jf.unsynced = 0
	return nil
}

// reset drops every entry (their blocks are all back on the disk), keeping the header, and
// syncs: a full scan's journal holds one request at a time.
func (jf *journalFile) reset() error {
	if jf.bytes == jf.header {
		return nil
	}
	jf.w.Reset(jf.f)
	err := jf.f.Truncate(jf.header)
	if err == nil {
		_, err = jf.f.Seek(jf.header, 0)
	}
	if err == nil {
		err = jf.f.Sync()
	}
	if err != nil {
		return fmt.Errorf("emptying the journal %s: %w", jf.path, err)
	}
	jf.bytes, jf.unsynced = jf.header, 0
	return nil
}

func (jf *journalFile) close() error {
	err := jf.sync()
	if cerr := jf.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// remove deletes the journal once every block it holds is back on the disk.
func (jf *journalFile) remove() error {
	jf.f.Close()
	return removeJournal(jf.path)
}

func removeJournal(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// JournalContent is a journal as read back.
type JournalContent struct {
	Header  JournalHeader
	entries []saved
	// TornBytes were cut off the end by a crash while they were appended: their blocks
	// were never written to the disk.
	TornBytes int64
}

// Blocks is how many blocks the journal holds.
func (c *JournalContent) Blocks() int { return len(c.entries) }

// ReadJournal parses a journal; it refuses anything damaged or not ours.
func ReadJournal(data []byte) (*JournalContent, error) {
	bad := func(why string) error { return fmt.Errorf("not an iomark verify journal, or damaged: %s", why) }
	if !bytes.HasPrefix(data, journalMagic) {
		if len(data) < len(journalMagic) && bytes.HasPrefix(journalMagic, data) {
			return nil, bad("its header is incomplete (a verify stopped this way had not written to the disk yet)")
		}
		return nil, bad("no header")
	}
	r := bytes.NewReader(data[len(journalMagic):])
	var version, blockBytes uint32
	var size, nonce, created uint64
	incomplete := bad("its header is incomplete (a verify stopped this way had not written to the disk yet)")
	if binary.Read(r, binary.LittleEndian, &version) != nil {
		return nil, incomplete
	}
	if version != journalVersion {
		return nil, bad(fmt.Sprintf("version %d, this iomark reads %d", version, journalVersion))
	}
	err0 := errors.Join(binary.Read(r, binary.LittleEndian, &size), binary.Read(r, binary.LittleEndian, &nonce),
		binary.Read(r, binary.LittleEndian, &blockBytes))
	id, err1 := readString16(r)
	dev, err2 := readString16(r)
	err3 := binary.Read(r, binary.LittleEndian, &created)
	hdrLen := len(data) - r.Len()
	var sum uint32
	err4 := binary.Read(r, binary.LittleEndian, &sum)
	if err := errors.Join(err0, err1, err2, err3, err4); err != nil {
		return nil, incomplete
	}
	if crc32.Checksum(data[:hdrLen], castagnoli) != sum {
		return nil, bad("header checksum mismatch")
	}
	if size > 1<<62 || blockBytes < SectorBytes || blockBytes > maxJournalEntryBytes || created > 1<<40 {
		return nil, bad("impossible sizes in the header")
	}
	c := &JournalContent{Header: JournalHeader{SizeBytes: int64(size), Nonce: nonce, BlockBytes: int(blockBytes),
		Identity: id, Device: dev, CreatedAt: time.Unix(int64(created), 0).UTC()}}
	body := data[len(data)-r.Len():]
	for len(body) > 0 {
		n, ok := parseEntry(body, size)
		if !ok {
			break
		}
		e := body[:n]
		length := int(binary.LittleEndian.Uint32(e[12:]))
		c.entries = append(c.entries, saved{off: int64(binary.LittleEndian.Uint64(e[4:])), data: bytes.Clone(e[entryHeaderBytes : entryHeaderBytes+length])})
		body = body[n:]
	}
	if len(body) > maxUnsyncedBytes+maxJournalEntryBytes {
		return nil, bad(fmt.Sprintf("entry %d is damaged with %d bytes after it: the journal's own drive may be failing", len(c.entries), len(body)))
	}
	c.TornBytes = int64(len(body))
	return c, nil
}

// parseEntry returns the length of the valid entry at the start of b, or false.
func parseEntry(b []byte, size uint64) (int, bool) {
	if len(b) < entryHeaderBytes+entryTrailerBytes || binary.LittleEndian.Uint32(b) != entryMagic {
		return 0, false
	}
	off := binary.LittleEndian.Uint64(b[4:])
	n := uint64(binary.LittleEndian.Uint32(b[12:]))
	if n == 0 || n > maxJournalEntryBytes || n%SectorBytes != 0 || off%SectorBytes != 0 || off > size || n > size-off {
		return 0, false
	}
	total := entryHeaderBytes + int(n) + entryTrailerBytes
	if len(b) < total {
		return 0, false
	}
	if crc32.Checksum(b[:total-entryTrailerBytes], castagnoli) != binary.LittleEndian.Uint32(b[total-entryTrailerBytes:]) {
		return 0, false
	}
	return total, true
}

func readString16(r *bytes.Reader) (string, error) {
	var n uint16
	if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
		return "", err
	}
	if int(n) > r.Len() {
		return "", errors.New("short")
	}
	b := make([]byte, n)
	r.Read(b)
	return string(b), nil
}

// JournalBytesBound is the most a probe's journal can grow to on a device of sizeBytes with
// the given cache flush limit (0: the default): the flush region, every sample the probe can
// write (the quick look, the survey and two searches, in rounds of at most 257 blocks), and
// each entry's framing. The caller checks there is that much room before the first write.
func JournalBytesBound(sizeBytes, maxFlushBytes int64, logicalBlockBytes int) int64 {
	block := max(int64(probeBlockBytes), int64(logicalBlockBytes))
	if maxFlushBytes <= 0 {
		maxFlushBytes = DefaultMaxFlushBytes
	}
	p := &prober{size: sizeBytes / block * block, block: block}
	survey := p.size/max(p.block, p.surveySpacing()) + 1
	// A search narrows by 4 a round without a flush (at most 32 rounds of 5 blocks on a
	// 16 TiB device of 4 KiB blocks), by 256 once the drive's cache is flushed every round
	// (at most 6 rounds of 257).
	search := int64(32*5 + 6*257)
	blocks := quickSamples + survey + 2*search
	bound := min(maxFlushBytes, p.size) + blocks*block
	return bound + (bound/block+1)*(entryHeaderBytes+entryTrailerBytes) + 64<<10
}

// ProbeWriteBytesBound is the most a probe writes to a device of sizeBytes with the given
// flush limit: the flush region and every sample the method can write (as JournalBytesBound
// counts them), and as much again to put them back unless it is destructive.
func ProbeWriteBytesBound(sizeBytes, maxFlushBytes int64, logicalBlockBytes int, destructive bool) int64 {
	block := max(int64(probeBlockBytes), int64(logicalBlockBytes))
	if maxFlushBytes <= 0 {
		maxFlushBytes = DefaultMaxFlushBytes
	}
	p := &prober{size: sizeBytes / block * block, block: block}
	survey := p.size/max(p.block, p.surveySpacing()) + 1
	blocks := quickSamples + survey + 2*int64(32*5+6*257)
	n := min(maxFlushBytes, p.size) + blocks*block
	if !destructive {
		n *= 2
	}
	return n
}

// RestoreJournal writes back every block a journal holds, newest first, and reads them all
// back. sizeBytes and identity are the device's, which must match the journal's (identity
// is not compared when either is empty). Run again after any interruption it does the same
// again, so a restore cut short is mended by running it once more. Only when every block
// reads back as saved is the journal removed.
func RestoreJournal(dev Device, sizeBytes int64, identity, path string) (*Restore, *JournalContent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("reading the journal: %w", err)
	}
	c, err := ReadJournal(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	h := c.Header
	if h.SizeBytes != sizeBytes {
		return nil, c, fmt.Errorf("%s was saved from a disk of %d bytes; this one holds %d: give the disk it was made for (it was /dev/%s then)", path, h.SizeBytes, sizeBytes, h.Device)
	}
	if h.Identity != "" && identity != "" && h.Identity != identity {
		return nil, c, fmt.Errorf("%s was saved from another disk (%s, then /dev/%s); this one is %s: give the disk it was made for — in the reader it was in then, whose identity it names", path, h.Identity, h.Device, identity)
	}
	j := newJournal()
	for _, e := range c.entries {
		j.add(e.off, e.data)
	}
	io := &blockIO{dev: dev}
	r, failed := j.restore(io)
	r.RecoveryFile = path
	if len(failed) > 0 {
		return &r, c, fmt.Errorf("%d of %d blocks could not be written: the journal %s is kept — check the disk (dmesg) and run the same iomark verify --restore again", len(failed), r.Blocks, path)
	}
	r.Verified = j.verify(io, h.Nonce, func(int64) bool { return false })
	if !r.Verified {
		return &r, c, fmt.Errorf("every block was written, but reading them back did not match the journal: it is kept (%s) — the disk may be failing; run the same iomark verify --restore again, or copy what you can off the disk", path)
	}
	if err := removeJournal(path); err != nil {
		return &r, c, fmt.Errorf("every block is back and checked, but removing the journal failed: %w — delete %s yourself", err, path)
	}
	r.RecoveryFile = ""
	return &r, c, nil
}
