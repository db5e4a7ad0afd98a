package flash

import (
	"bytes"
	"errors"
)

// saved is a block as it was before the probe first wrote over it.
type saved struct {
	off  int64
	data []byte
}

// journal keeps every block the probe overwrites, in the order it wrote them. Restoring
// goes backwards: on a wrapping drive two addresses share one place, and the block saved
// first holds what that place held before the run.
//
// With a file, every copy is also appended to it (journalfile.go) and commit makes the
// copies durable: the probe commits before each group of writes.
type journal struct {
	entries []saved
	at      map[int64]int // offset -> entry: a block rewritten later keeps its first copy
	file    *journalFile
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

// add keeps a copy of data as the content of off before the run's first write there. An
// error is the journal file's: the block must then not be written.
func (j *journal) add(off int64, data []byte) error {
	if j.has(off) {
		return nil
	}
	j.at[off] = len(j.entries)
	j.entries = append(j.entries, saved{off: off, data: bytes.Clone(data)})
	if j.file != nil {
		return j.file.append(off, data)
	}
	return nil
}

// commit makes every copy added so far durable; the blocks they save may be written after.
func (j *journal) commit() error {
	if j.file == nil {
		return nil
	}
	return j.file.sync()
}

// restore writes every saved block back, newest first. It is not interruptible: it runs to
// the end whatever the caller's context says, because stopping half-way would leave the
// device worse than either state. Blocks it cannot write are returned (the journal file keeps
// them all for `iomark verify --restore`).
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

// errGone is a device that stopped existing (unplugged, reset, detached).
var errGone = errors.New("the device went away")
