package flash

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
)

// saved is a block as it was before the probe first wrote over it.
type saved struct {
	off  int64
	data []byte
}

// journal keeps every block the probe overwrites, in the order it wrote them. Restoring
// goes backwards: on a wrapping drive two addresses share one place, and the block saved
// first holds what that place held before the run.
type journal struct {
	entries []saved
	at      map[int64]int // offset -> entry: a block rewritten later keeps its first copy
}

func newJournal() *journal { return &journal{at: map[int64]int{}} }

// has reports whether off was saved.
func (j *journal) has(off int64) bool {
	_, ok := j.at[off]
	return ok
}

// hasAll reports whether every block of [off, off+n) was saved.
func (j *journal) hasAll(off, n, block int64) bool {
	for b := off; b < off+n; b += block {
		if !j.has(b) {
			return false
		}
	}
	return true
}

// get returns what off held before the run, or nil.
func (j *journal) get(off int64) []byte {
	if i, ok := j.at[off]; ok {
		return j.entries[i].data
	}
	return nil
}

// add keeps a copy of data as the content of off before the run's first write there.
func (j *journal) add(off int64, data []byte) {
	if j.has(off) {
		return
	}
	j.at[off] = len(j.entries)
	j.entries = append(j.entries, saved{off: off, data: bytes.Clone(data)})
}

// restore writes every saved block back, newest first. It is not interruptible: it runs to
// the end whatever the caller's context says, because stopping half-way would leave the
// device worse than either state. Blocks it cannot write are returned for a recovery file.
//
// Blocks saved one after the other at adjacent offsets (a flush chunk, saved block by
// block) go back in one write: a card that takes milliseconds per write would otherwise
// spend most of the run restoring. Their order among themselves does not matter, they are
// distinct addresses; the order between runs is kept.
func (j *journal) restore(io *blockIO) (r Restore, failed []saved) {
	r.Blocks = len(j.entries)
	for i := len(j.entries) - 1; i >= 0; {
		k := i // entries k..i are adjacent on the device, in journal order
		for k > 0 && j.adjacent(k-1) && int64(i-k+1) < maxRestoreRun {
			k--
		}
		buf := make([]byte, 0, (i-k+1)*len(j.entries[i].data))
		for x := k; x <= i; x++ {
			buf = append(buf, j.entries[x].data...)
		}
		r.Bytes += int64(len(buf))
		off := j.entries[k].off
		err := io.write(buf, off)
		if err != nil {
			err = io.write(buf, off) // once more: a USB reset can fail one command
		}
		if err != nil && k < i {
			// Block by block, so only the blocks that really fail are reported.
			err = nil
			for x := i; x >= k; x-- {
				if io.write(j.entries[x].data, j.entries[x].off) != nil {
					failed = append(failed, j.entries[x])
				}
			}
		} else if err != nil {
			failed = append(failed, j.entries[i])
		}
		i = k - 1
	}
	r.Failed = len(failed)
	return r, failed
}

// maxRestoreRun bounds one restore write (in saved blocks: 1 MiB of 4 KiB blocks).
const maxRestoreRun = 256

// verify reads every restored block back and compares it with what was saved, skipping
// blocks skip names (inside regions that do not read back what was written). Adjacent
// blocks saved one after the other are read in one read, as restore wrote them.
func (j *journal) verify(io *blockIO, nonce uint64, skip func(off int64) bool) bool {
	for i := 0; i < len(j.entries); {
		k := i
		for k+1 < len(j.entries) && j.adjacent(k) && k-i+1 < maxRestoreRun {
			k++
		}
		start := j.entries[i].off
		last := j.entries[k]
		got, err := io.read(start, int(last.off+int64(len(last.data))-start))
		if err != nil {
			return false
		}
		for x := i; x <= k; x++ {
			e := j.entries[x]
			if !skip(e.off) && !restored(got[e.off-start:e.off-start+int64(len(e.data))], e.data, nonce) {
				return false
			}
		}
		i = k + 1
	}
	return true
}

// adjacent reports whether entry k+1 starts where entry k ends.
func (j *journal) adjacent(k int) bool {
	return j.entries[k].off+int64(len(j.entries[k].data)) == j.entries[k+1].off
}

// restored judges a block read back after the restore against its saved copy.
func restored(got, saved []byte, nonce uint64) bool {
	switch {
	case bytes.Equal(got, saved):
		return true
	case hasNonce(saved, nonce):
		// The block was saved while it held one of this run's stamps, written through
		// another address that lands on it (a wrapping drive): what it must hold now is
		// what the earlier copy restored, so it must hold no stamp of this run.
		return !hasNonce(got, nonce)
	}
	return false
}

// Recovery files hold blocks a probe could not write back, in the order they must be
// written: magic, version, device size, entry count, then per entry its offset, length and
// bytes, and a CRC-32C of everything before it.
var recoveryMagic = []byte("IOMARK-VERIFY-RESTORE\n")

const recoveryVersion = 1

// writeRecoveryFile saves blocks for a later `iomark verify --restore FILE DEVICE`.
func writeRecoveryFile(path string, sizeBytes int64, blocks []saved) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	crc := crc32.New(castagnoli)
	w := bufio.NewWriter(io.MultiWriter(f, crc))
	w.Write(recoveryMagic)
	binary.Write(w, binary.LittleEndian, uint32(recoveryVersion))
	binary.Write(w, binary.LittleEndian, uint64(sizeBytes))
	binary.Write(w, binary.LittleEndian, uint32(len(blocks)))
	for _, b := range blocks {
		binary.Write(w, binary.LittleEndian, uint64(b.off))
		binary.Write(w, binary.LittleEndian, uint32(len(b.data)))
		w.Write(b.data)
	}
	err = w.Flush()
	if err == nil {
		err = binary.Write(f, binary.LittleEndian, crc.Sum32())
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// maxRecoveryBlockBytes bounds one entry of a recovery file (a probe saves 4 KiB blocks).
const maxRecoveryBlockBytes = 1 << 20

// readRecoveryFile parses a recovery file; it refuses anything damaged or not ours.
func readRecoveryFile(data []byte) (sizeBytes int64, blocks []saved, err error) {
	bad := func(why string) error { return fmt.Errorf("not an iomark verify recovery file, or damaged: %s", why) }
	if len(data) < len(recoveryMagic)+4+8+4+4 || !bytes.HasPrefix(data, recoveryMagic) {
		return 0, nil, bad("no header")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	if crc32.Checksum(body, castagnoli) != sum {
		return 0, nil, bad("checksum mismatch")
	}
	r := bytes.NewReader(body[len(recoveryMagic):])
	var version, count uint32
	var size uint64
	binary.Read(r, binary.LittleEndian, &version)
	binary.Read(r, binary.LittleEndian, &size)
	if err := binary.Read(r, binary.LittleEndian, &count); err != nil {
		return 0, nil, bad("short header")
	}
	if version != recoveryVersion {
		return 0, nil, bad(fmt.Sprintf("version %d, this iomark reads %d", version, recoveryVersion))
	}
	if size > 1<<62 || int64(count) > int64(r.Len())/12 {
		return 0, nil, bad("impossible sizes")
	}
	for i := uint32(0); i < count; i++ {
		var off uint64
		var n uint32
		binary.Read(r, binary.LittleEndian, &off)
		if err := binary.Read(r, binary.LittleEndian, &n); err != nil {
			return 0, nil, bad("short entry")
		}
		if n == 0 || n > maxRecoveryBlockBytes || n%SectorBytes != 0 || off%SectorBytes != 0 || off > size || uint64(n) > size-off || int(n) > r.Len() {
			return 0, nil, bad(fmt.Sprintf("entry %d: %d bytes at %d", i, n, off))
		}
		b := make([]byte, n)
		io.ReadFull(r, b)
		blocks = append(blocks, saved{off: int64(off), data: b})
	}
	if r.Len() != 0 {
		return 0, nil, bad("trailing bytes")
	}
	return int64(size), blocks, nil
}

// errGone is a device that stopped existing (unplugged, reset, detached).
var errGone = errors.New("the device went away")

// RestoreFile writes back the blocks a probe saved in a recovery file because it could not
// write them back itself (the device failed or went away). sizeBytes is the device's size,
// which must match the one the file was made for.
func RestoreFile(dev Device, sizeBytes int64, path string) (*Restore, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the recovery file: %w", err)
	}
	size, blocks, err := readRecoveryFile(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if size != sizeBytes {
		return nil, fmt.Errorf("%s was saved from a device of %d bytes; this one holds %d: is it the same device?", path, size, sizeBytes)
	}
	io := &blockIO{dev: dev}
	r := &Restore{Blocks: len(blocks), RecoveryFile: path}
	for _, b := range blocks {
		r.Bytes += int64(len(b.data))
		if err := io.write(b.data, b.off); err != nil {
			r.Failed++
		}
	}
	if r.Failed > 0 {
		return r, fmt.Errorf("%d of %d blocks could not be written: keep %s and try again", r.Failed, r.Blocks, path)
	}
	// Blocks written later win where two addresses share a place, so only the last write
	// to each offset is expected to read back.
	last := map[int64][]byte{}
	for _, b := range blocks {
		last[b.off] = b.data
	}
	r.Verified = true
	for off, want := range last {
		got, err := io.read(off, len(want))
		if err != nil || !bytes.Equal(got, want) {
			r.Verified = false
		}
	}
	return r, nil
}
