package cli

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/store"
	"github.com/iomark/iomark/internal/target"
)

// A whole-disk verify keeps what it overwrites in a write-ahead journal (flash/journalfile.go).
// While a journal exists its disk is not what it was: a pointer to it, keyed by the disk's
// identity, sits in the data directory's verify-pending/, and any verify, fill or run of a
// disk with that identity refuses until the journal is restored or discarded. The identity
// is the serial number's hash and size (a loop device's backing file and size), never the
// /dev name, which changes when a card is plugged in again.

// pendingJournal is one pointer file.
type pendingJournal struct {
	Journal   string    `json:"journal"`
	Identity  string    `json:"identity"`
	SizeBytes int64     `json:"size_bytes"`
	Device    string    `json:"device"` // /dev name when the verify started
	CreatedAt time.Time `json:"created_at"`
}

// diskIdentity names the disk a report describes, for its journal. A disk with no serial
// number is named by its kind and size, so a pending journal blocks every such disk of that
// size: wrongly refusing is better than writing over the copies' disk.
func diskIdentity(rep *probe.Report, sizeBytes int64) string {
	if rep == nil {
		return fmt.Sprintf("unidentified|%d", sizeBytes)
	}
	if rep.Device != nil && rep.Device.CapacityBytes > 0 {
		sizeBytes = int64(rep.Device.CapacityBytes)
	}
	if rep.Loop != nil && rep.Loop.BackingFile != "" {
		return fmt.Sprintf("loop:%s|%d", strings.TrimSuffix(rep.Loop.BackingFile, " (deleted)"), sizeBytes)
	}
	if _, k := target.Keys(rep); k != "" {
		return k
	}
	return fmt.Sprintf("unidentified|%d", sizeBytes)
}

// dataDir is the directory of the default results database, where journals and their
// pointers live by default.
func dataDir() string {
	if p, err := store.DefaultPath(); err == nil {
		return filepath.Dir(p)
	}
	return os.TempDir()
}

func pendingDir() string { return filepath.Join(dataDir(), "verify-pending") }

// defaultJournalPath is a new journal's place when --journal is not given.
func defaultJournalPath(disk string) string {
	return filepath.Join(dataDir(), fmt.Sprintf("verify-journal-%s-%s.bin", disk, time.Now().UTC().Format("20060102T150405Z")))
}

// addPending records a journal before the verify's first write, synced, so a crash leaves it.
func addPending(p pendingJournal) error {
	dir := pendingDir()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("recording the verify's journal in %s: %w", dir, err)
	}
	b, _ := json.MarshalIndent(p, "", "  ")
	// Named for the journal's file name and a hash of its whole path: two journals of one
	// name in two directories keep two pointers.
	sum := sha256.Sum256([]byte(p.Journal))
	path := filepath.Join(dir, fmt.Sprintf("%s-%x.json", filepath.Base(p.Journal), sum[:4]))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err == nil {
		_, err = f.Write(append(b, '\n'))
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		if d, derr := os.Open(dir); derr == nil {
			err = d.Sync()
			d.Close()
		}
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("recording the verify's journal in %s: %w; nothing was written", dir, err)
	}
	return nil
}

// pendingPointer is a recorded journal and the pointer file that records it.
type pendingPointer struct {
	path string
	pendingJournal
}

// readPending reads every pointer file (unreadable ones are skipped).
func readPending() []pendingPointer {
	paths, _ := filepath.Glob(filepath.Join(pendingDir(), "*.json"))
	var out []pendingPointer
	for _, path := range paths {
		b, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		var p pendingJournal
		if json.Unmarshal(b, &p) == nil {
			out = append(out, pendingPointer{path, p})
		}
	}
	return out
}

// pendingJournals lists every recorded journal (unreadable pointers are skipped).
func pendingJournals() []pendingJournal {
	var out []pendingJournal
	for _, p := range readPending() {
		if p.Journal != "" {
			out = append(out, p.pendingJournal)
		}
	}
	return out
}

// removePending forgets every pointer to journal.
func removePending(journal string) {
	abs, _ := filepath.Abs(journal)
	for _, p := range readPending() {
		if p.Journal == abs || p.Journal == journal {
			os.Remove(p.path)
		}
	}
}

// refusePending returns an error naming the journal and what to do when a verify of the disk
// rep describes was cut short; nil when there is none. dev is the disk as the user named it
// ("" to use the report's).
func refusePending(rep *probe.Report, sizeBytes int64, dev string) error {
	id := diskIdentity(rep, sizeBytes)
	if dev == "" && rep != nil && rep.Device != nil {
		dev = rep.Device.Path
	}
	if dev == "" {
		dev = "DISK"
	}
	for _, p := range pendingJournals() {
		if p.Identity != id {
			continue
		}
		when := p.CreatedAt.UTC().Format("2006-01-02 15:04 UTC")
		restore := fmt.Sprintf("iomark verify --restore %s %s --confirm %s", p.Journal, dev, dev)
		discard := fmt.Sprintf("iomark verify --discard-journal %s %s --confirm %s", p.Journal, dev, dev)
		if _, err := os.Stat(p.Journal); err != nil {
			return fmt.Errorf("a verify of this disk (%s then) started %s did not finish, and its journal %s is not there (on a drive not mounted now?): mount it and run %s — or, if it is lost, %s; nothing was written",
				p.Device, when, p.Journal, restore, discard)
		}
		return fmt.Errorf("a verify of this disk (%s then) started %s did not finish: its journal %s holds blocks it overwrote. Put them back first: %s — or, to give them up for good, %s; nothing was written",
			p.Device, when, p.Journal, restore, discard)
	}
	return nil
}

// prepareJournal refuses a disk with a pending journal, and picks and checks the new one's
// place (not on the disk, room for all it may hold): all before the disk is opened for
// writing. It returns nil for a destructive verify.
func prepareJournal(dev string, f *verifyFlags, o *flash.ProbeOptions) (*pendingJournal, error) {
	ro, err := flash.OpenBlock(dev, false, f.root)
	if err != nil {
		return nil, err
	}
	disk := ro.Disk
	size, lbs := ro.SizeBytes, ro.LogicalBlockBytes
	ro.Close()
	rep := identify(dev, f.root)
	if err := refusePending(rep, size, dev); err != nil {
		return nil, err
	}
	if f.destructive {
		return nil, nil
	}
	path := f.journal
	if path == "" {
		path = defaultJournalPath(disk.Name)
	}
	if path, err = filepath.Abs(path); err != nil {
		return nil, err
	}
	if err := flash.CheckJournalPlace(path, disk.MajMin, f.root, flash.JournalBytesBound(size, o.MaxFlushBytes, lbs)); err != nil {
		return nil, err
	}
	return &pendingJournal{Journal: path, Identity: diskIdentity(rep, size), SizeBytes: size, Device: dev, CreatedAt: time.Now().UTC()}, nil
}

// restoreJournal is `iomark verify --restore JOURNAL DISK --confirm DISK`.
func restoreJournal(cmd *cobra.Command, dev string, f *verifyFlags) error {
	b, err := flash.OpenBlock(dev, true, f.root)
	if err != nil {
		return withExit(exitFailure, err)
	}
	defer b.Close()
	if _, err := os.Stat(f.restore); errors.Is(err, os.ErrNotExist) {
		removePending(f.restore)
		return withExit(exitFailure, fmt.Errorf("%s is not there: a restore that finished removes its journal, so there is nothing to put back — check the path", f.restore))
	}
	id := diskIdentity(identify(dev, f.root), b.SizeBytes)
	r, c, err := flash.RestoreJournal(b, b.SizeBytes, id, f.restore)
	if err != nil {
		return withExit(exitFailure, err)
	}
	removePending(f.restore)
	out := cmd.OutOrStdout()
	if f.asJSON {
		return printJSON(out, r)
	}
	fmt.Fprintf(out, "%s: wrote back %d blocks (%s) from %s and read them back as saved; the journal was removed\n", dev, r.Blocks, report.Bytes(r.Bytes), f.restore)
	if c.TornBytes > 0 {
		fmt.Fprintf(out, "(its last %d bytes were cut off while they were written; the blocks they would have saved were never overwritten)\n", c.TornBytes)
	}
	return nil
}

// discardJournal is `iomark verify --discard-journal JOURNAL DISK --confirm DISK`.
func discardJournal(cmd *cobra.Command, dev string, f *verifyFlags) error {
	what := "its blocks"
	if data, err := os.ReadFile(f.discard); err == nil {
		if c, err := flash.ReadJournal(data); err == nil {
			what = fmt.Sprintf("the %d blocks it held", c.Blocks())
		}
	}
	if err := os.Remove(f.discard); err != nil && !errors.Is(err, os.ErrNotExist) {
		return withExit(exitFailure, fmt.Errorf("removing the journal: %w", err))
	}
	removePending(f.discard)
	fmt.Fprintf(cmd.OutOrStdout(), "%s: discarded the journal %s; %s will not be put back\n", dev, f.discard, what)
	return nil
}
