package profile

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/record"
)

// FioFileName is the file the fio jobs of a run share, in the directory that was benchmarked:
// the first job lays it out, the others reuse it, as iomark's tests share one test file.
const FioFileName = "iomark-fio.tmp"

// FioShape is a test's shape in the terms of fio's options (fio's HOWTO).
type FioShape struct {
	Name     string
	Filename string
	// SizeBytes is the file's size and the region I/O is spread over (0: all of an existing
	// file or device).
	SizeBytes int64
	Op        engine.Pattern
	BS        int
	QD, Jobs  int
	Engine    engine.Engine // psync or io_uring
	Direct    bool
	Runtime   time.Duration // the measured window
	Ramp      time.Duration // run this long first, unmeasured (fio's ramp_time)
	EndFsync  bool          // fsync once after the last write, timed with the job
	// Device: Filename is a block device, opened read-only (fio's readonly); a write test
	// has no line on one.
	Device bool
}

// targetBlock is record.Target.Kind for a block device.
const targetBlock = "block"

// Args are fio's options for s, the program name left out. Each maps one part of iomark's
// engine (engine/job_linux.go, psync_linux.go, uring_linux.go) to the fio option that does the
// same:
//
//   - psync runs a queue depth of N as N synchronous callers: fio's psync with numjobs=N and
//     iodepth=1, reported as one group. Those callers share one sequential stream in iomark,
//     which fio's separate jobs cannot, so a sequential psync test deeper than 1 has no line.
//   - io_uring: one ring per job, files and buffers registered (fixedbufs, registerfiles).
//   - random offsets are uniform and drawn afresh, repeats allowed (norandommap); sequential
//     ones walk the file and wrap, as a time_based fio job does. Several sequential jobs each
//     walk a region of their own in iomark, which has no line here.
//   - the file holds data before the first measured write (overwrite=1 lays a new one out
//     first): writes into never-written extents are not what iomark measured.
//   - time_based, runtime and ramp_time: fio's window is the measured repetition's.
func (s FioShape) Args() ([]string, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	// Options are written without their dashes, added once at the end.
	opts := []string{"name=" + s.Name, "filename=" + s.Filename}
	if s.Device {
		opts = append(opts, "readonly")
	}
	if s.SizeBytes > 0 {
		opts = append(opts, "size="+fioSize(s.SizeBytes))
	}
	opts = append(opts, "rw="+string(s.Op), "bs="+fioSize(int64(s.BS)), "ioengine="+string(s.Engine))
	iodepth, numjobs := s.QD, s.Jobs
	if s.Engine == engine.EnginePsync {
		iodepth, numjobs = 1, s.QD*s.Jobs
	} else {
		opts = append(opts, "fixedbufs", "registerfiles")
	}
	opts = append(opts, "iodepth="+strconv.Itoa(iodepth), "numjobs="+strconv.Itoa(numjobs))
	if numjobs > 1 {
		opts = append(opts, "group_reporting")
	}
	opts = append(opts, "direct="+boolOpt(s.Direct))
	if s.Op.Random() {
		opts = append(opts, "norandommap")
	}
	if s.Op.Writes() {
		opts = append(opts, "overwrite=1")
		if s.EndFsync {
			opts = append(opts, "end_fsync=1")
		}
	}
	opts = append(opts, "time_based", "runtime="+fioTime(s.Runtime))
	if s.Ramp > 0 {
		opts = append(opts, "ramp_time="+fioTime(s.Ramp))
	}
	args := make([]string, len(opts))
	for i, o := range opts {
		args[i] = "--" + o
	}
	return args, nil
}

func (s FioShape) check() error {
	switch {
	case s.Name == "" || s.Filename == "":
		return errors.New("no job name or file")
	case s.Op == engine.RandRW:
		return errors.New("a mixed random test's read share is not recorded, and fio's rwmixread needs it")
	case s.Op != engine.Read && s.Op != engine.Write && s.Op != engine.RandRead && s.Op != engine.RandWrite:
		return fmt.Errorf("op %q is not an access pattern fio names", s.Op)
	case s.BS <= 0 || s.QD <= 0 || s.Jobs <= 0:
		return fmt.Errorf("block size %d, queue depth %d or jobs %d not recorded", s.BS, s.QD, s.Jobs)
	case s.Engine != engine.EnginePsync && s.Engine != engine.EngineIOUring:
		return fmt.Errorf("engine %q: only psync and io_uring runs have a fio equivalent", s.Engine)
	case s.Engine == engine.EnginePsync && s.QD > 1 && !s.Op.Random():
		return fmt.Errorf("iomark's psync ran %d callers over one sequential stream; fio's psync jobs each walk the file on their own", s.QD)
	case s.Jobs > 1 && !s.Op.Random():
		return fmt.Errorf("iomark's %d sequential jobs each walked a region of their own; this line would have them share one", s.Jobs)
	case s.Device && s.Op.Writes():
		return fmt.Errorf("a write to the device %s: a printed line would overwrite it", s.Filename)
	case s.Runtime < time.Millisecond:
		return errors.New("no measured duration recorded")
	}
	return nil
}

// FioFor is the fio job equivalent to test t of run, on FioFileName in the directory that was
// benchmarked, and which of its values came from t's profile table rather than the record (a
// record made before working_set_bytes and ramp_s, and what the record never holds: the
// discarded warm-up run and an end fsync). iomark's figure is the median of repetitions, each
// after the one before; fio has no warm-up run, so its ramp_time is the warm-up and the
// repetition's ramp together (the warm-up as recorded, warm_up_s, which a burst lengthens; else
// the profile's): its window opens after as much I/O as iomark's first counted repetition's did.
//
// A test fio cannot run the same way is an error saying why: buffered peer-style tests (dd,
// hdparm: the page cache dropped before each run, a whole-disk read), the sustained write
// (its figures come from its per-second series, not an average), a network copy, and writes
// to a block device (the line would overwrite the device).
func FioFor(run *record.Run, t record.Test) (FioShape, []string, error) {
	var derived []string
	pt, known := profileTest(run.Profile, t.Name)
	switch {
	case t.Network != nil:
		return FioShape{}, nil, errors.New("a network copy: its rate is the network's and the drive's together")
	case t.Sustained != nil || known && pt.Sustained != nil:
		return FioShape{}, nil, errors.New("a sustained write: its figures (cliff, rate after it) come from its per-second series, not one average")
	case !t.Direct || known && (pt.Buffered || pt.DeviceRead || pt.DropCache):
		return FioShape{}, nil, errors.New("a buffered peer-style test (page cache dropped before each run, as dd and hdparm): fio's buffered jobs time it differently")
	case run.Target.Kind == targetBlock && engine.Pattern(t.Op).Writes():
		return FioShape{}, nil, fmt.Errorf("it wrote to the device %s itself; a printed line would overwrite it", run.Target.Path)
	}
	s := FioShape{Name: t.Name, Filename: FioFileName, SizeBytes: t.WorkingSetBytes, Op: engine.Pattern(t.Op),
		BS: t.BS, QD: t.QD, Jobs: t.Jobs, Engine: engine.Engine(t.Engine), Direct: t.Direct,
		Runtime: fioRound(t.DurationS), Ramp: fioRound(t.RampS)}
	if run.Target.Kind == targetBlock {
		// The device itself, read-only; its first working_set_bytes as iomark read them.
		s.Filename, s.Device = run.Target.Path, true
	}
	if t.WorkingSetBytes == 0 {
		if !known {
			return FioShape{}, nil, fmt.Errorf("the record holds no working set size and profile %q is not one this iomark knows", run.Profile)
		}
		p, _ := ByName(run.Profile)
		s.SizeBytes = p.FileBytes
		if pt.RegionBytes > 0 {
			s.SizeBytes = pt.RegionBytes
		}
		derived = append(derived, fmt.Sprintf("size %s from the %s profile's test file", engine.FormatSize(s.SizeBytes), run.Profile))
		if t.RampS == 0 {
			s.Ramp = pt.Ramp
			derived = append(derived, fmt.Sprintf("ramp %v from the %s profile", pt.Ramp, run.Profile))
		}
	}
	if t.WarmUpS > 0 {
		// The warm-up as it ran: longer than the profile's when a burst outlasted it.
		s.Ramp += fioRound(t.WarmUpS)
	}
	if known {
		if pt.WarmUp > 0 && pt.MaxRuns > 1 && t.WarmUpS == 0 {
			s.Ramp += pt.WarmUp
			derived = append(derived, fmt.Sprintf("ramp_time includes the %v warm-up run of the %s profile", pt.WarmUp, run.Profile))
		}
		s.EndFsync = pt.EndFsync
	} else {
		derived = append(derived, fmt.Sprintf("profile %q unknown to this iomark: no warm-up or end fsync added", run.Profile))
	}
	if _, err := s.Args(); err != nil {
		return FioShape{}, nil, err
	}
	return s, derived, nil
}

// profileTest finds a test by name in the named profile.
func profileTest(profileName, testName string) (Test, bool) {
	p, err := ByName(profileName)
	if err != nil {
		return Test{}, false
	}
	for _, t := range p.Tests {
		if t.Name == testName {
			return t, true
		}
	}
	return Test{}, false
}

// fioRound turns recorded seconds into a duration in whole 10 ms: a measured window of
// 3.0016 s is a 3 s run that ended with its I/O in flight, and fio's line reads --runtime=3.
// Anything shorter than 10 ms is kept to the millisecond.
func fioRound(s float64) time.Duration {
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) || s > 1e6 {
		return 0
	}
	if s < 0.01 {
		return time.Duration(math.Round(s*1000)) * time.Millisecond
	}
	return time.Duration(math.Round(s*100)) * 10 * time.Millisecond
}

// fioTime writes d as fio's time options take it: whole seconds bare, else milliseconds with
// the "ms" suffix (HOWTO, "Time values").
func fioTime(d time.Duration) string {
	ms := d.Milliseconds()
	if ms%1000 == 0 {
		return strconv.FormatInt(ms/1000, 10)
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// fioSize writes n bytes as fio's size options take it: with kb_base=1024, fio's default,
// k, m and g are 2^10, 2^20 and 2^30 (HOWTO, "Integers"); a size that is none of them whole
// is printed in bytes.
func fioSize(n int64) string {
	for _, u := range []struct {
		suffix string
		bytes  int64
	}{{"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}} {
		if n >= u.bytes && n%u.bytes == 0 {
			return strconv.FormatInt(n/u.bytes, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func boolOpt(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
