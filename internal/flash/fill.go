package flash

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// FillOptions configures Fill.
type FillOptions struct {
	Dir string
	// SizeBytes tests only this many bytes; 0 fills the free space minus a margin.
	SizeBytes int64
	// FileBytes is the size of each file (default 1 GiB; FAT32 holds at most 4 GiB - 1).
	FileBytes int64
	// Nonce marks this run's stamps; 0 picks a random one.
	Nonce    uint64
	Progress func(Progress)
	// Root is where procfs is read (the leftover sweep checks owners' boot id); "" is live.
	Root string
}

const (
	defaultFillFileBytes = 1 << 30
	fillChunkBytes       = 4 << 20
	// fillMarginBytes is left free: a filesystem needs room for its own metadata as files
	// grow, and a full one can misbehave (f3write fills to the last byte; a margin of half
	// a percent, at least 16 MiB, costs little of the test).
	fillMarginMinBytes = 16 << 20
	// maxBadRanges bounds the bad ranges a report lists.
	maxBadRanges = 64
	// fillSeriesPoints is about how many points the rate series has.
	fillSeriesPoints = 100
)

// fillDirPrefix names a fill's working directory: .iomark-verify-PID-NONCE. An owner file
// inside holds the PID, the boot id and the process start time, so a later run can tell a
// leftover of a killed run from a fill in progress.
const fillDirPrefix = ".iomark-verify-"

const ownerFile = "owner"

// owner identifies the process that made a fill directory.
type owner struct {
	pid       int
	bootID    string
	startTick string // field 22 of /proc/PID/stat: start time in clock ticks since boot
}

func (o owner) String() string { return fmt.Sprintf("%d %s %s\n", o.pid, o.bootID, o.startTick) }

func parseOwner(s string) (owner, bool) {
	f := strings.Fields(s)
	if len(f) != 3 {
		return owner{}, false
	}
	pid, err := strconv.Atoi(f[0])
	if err != nil || pid <= 0 {
		return owner{}, false
	}
	return owner{pid: pid, bootID: f[1], startTick: f[2]}, true
}

// selfOwner describes this process.
func selfOwner(root string) owner {
	return owner{pid: os.Getpid(), bootID: bootID(root), startTick: startTick(root, os.Getpid())}
}

func bootID(root string) string {
	b, err := os.ReadFile(filepath.Join(root, "/proc/sys/kernel/random/boot_id"))
	if err != nil {
		return "-"
	}
	return strings.TrimSpace(string(b))
}

// startTick is field 22 of /proc/PID/stat, "-" when unknown. The command name (field 2) may
// hold spaces and parentheses, so fields are counted after its closing parenthesis.
func startTick(root string, pid int) string {
	b, err := os.ReadFile(filepath.Join(root, "/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return "-"
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "-"
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 {
		return "-"
	}
	return f[19] // field 22 overall: 3rd after the name is index 0
}

// alive reports whether the owner of a fill directory still runs: same boot, same PID, same
// start time (a PID reused by another process has another start time).
func (o owner) alive(root string) bool {
	if o.bootID != bootID(root) {
		return false
	}
	st := startTick(root, o.pid)
	return st != "-" && st == o.startTick
}

// sweepLeftovers removes the fill directories in dir whose owner is gone, and returns how
// many files it removed. It removes only files named like a fill's and the owner file, then
// the directory; anything else in it is left, with the directory.
func sweepLeftovers(dir, root string) (int, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), fillDirPrefix) {
			continue
		}
		wd := filepath.Join(dir, e.Name())
		b, err := os.ReadFile(filepath.Join(wd, ownerFile))
		o, ok := parseOwner(string(b))
		if err == nil && ok && o.alive(root) {
			continue // a fill in progress (another iomark verify on this filesystem)
		}
		n, _ := removeFillDir(wd)
		removed += n
	}
	return removed, nil
}

// removeFillDir removes a fill directory: its numbered .bin files and owner file, then the
// directory itself.
func removeFillDir(wd string) (int, error) {
	entries, err := os.ReadDir(wd)
	if err != nil {
		return 0, err
	}
	n := 0
	var firstErr error
	for _, e := range entries {
		name := e.Name()
		if name != ownerFile && !isFillFile(name) {
			continue
		}
		if err := os.Remove(filepath.Join(wd, name)); err != nil && firstErr == nil {
			firstErr = err
		} else if err == nil && name != ownerFile {
			n++
		}
	}
	if err := os.Remove(wd); err != nil && firstErr == nil {
		firstErr = err
	}
	return n, firstErr
}

func isFillFile(name string) bool {
	num, ok := strings.CutSuffix(name, ".bin")
	if !ok || len(num) != 4 {
		return false
	}
	_, err := strconv.Atoi(num)
	return err == nil
}

func fillFileName(i int) string { return fmt.Sprintf("%04d.bin", i) }

// fillVerdict decides what a fill's read-back means.
func fillVerdict(res *Result, f *FillReport, firstBad int64, tailBad bool, kind string, seen SectorState) {
	res.UsableBytes = f.OKBytes
	if firstBad < 0 {
		res.Verdict, res.UsableBytes = Genuine, res.ClaimedBytes
		return
	}
	fb := firstBad
	res.FirstBadByte = &fb
	switch {
	case f.OverwrittenBytes > 0:
		res.Verdict, res.Failure = Fake, FailureWrap
		res.FailureDetail = "data written later landed on data written earlier"
	case tailBad:
		res.Verdict, res.Failure = Fake, kind
	default:
		res.Verdict, res.Failure = Damaged, kind
	}
	if res.Failure == FailureDropped {
		switch seen {
		case SectorZeros:
			res.FailureDetail = "data was lost: it reads back as zeros"
		case SectorOnes:
			res.FailureDetail = "data was lost: it reads back as 0xff bytes"
		default:
			res.FailureDetail = "data was lost: it reads back as other data"
		}
	}
	if res.Failure == FailureIOError {
		res.FailureDetail = "reads fail with I/O errors"
	}
	if res.Failure == FailureCorrupt {
		res.FailureDetail = "data comes back with bits changed"
	}
}
