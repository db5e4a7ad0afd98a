package netcopy

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runner"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// labWriteMBps is the emulated drive's write limit: a slow USB stick's.
const labWriteMBps = 20

// copyTo runs a sink on the drive's filesystem and a sender of size bytes over loopback, with
// what the test does during the copy, and returns the sink's record and the sender's error.
func copyTo(t *testing.T, d *lab.Drive, size int64, during func(s *Sink)) (*record.Run, error) {
	t.Helper()
	rep, err := probe.Probe(d.Mnt, probe.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := startSink(t, d.Mnt, SinkConfig{Env: runner.Env{ToolVersion: "test", Probe: rep, Log: t.Logf}})
	ch := serve(s, context.Background())
	if during != nil {
		go during(s)
	}
	_, sendErr := Send(context.Background(), SendConfig{Addr: s.Addr().String(), Token: s.Token(), Size: size})
	got := <-ch
	if got.err != nil {
		t.Fatal(got.err)
	}
	if l := leftoversIn(t, d.Mnt); len(l) != 0 {
		t.Errorf("left on the drive: %v", l)
	}
	return got.rec, sendErr
}

func leftoversIn(t *testing.T, dir string) []string {
	var out []string
	for _, n := range dirEntries(t, dir) {
		if n != "lost+found" && n != "hog" && n != "dd-reference" { // the tests' own files
			out = append(out, n)
		}
	}
	return out
}

func within(got, want, tol float64) bool { return got >= want*(1-tol) && got <= want*(1+tol) }

// TestThrottledCopy: over loopback the network outruns a drive limited to 20 MB/s: the drive
// is the limit and its rate is within 5% of the limit (1 MiB writes at QD1, which blk-throttle
// does not count twice). On a loaded machine no writer reaches the limit (each 50 ms write
// waits a few ms more to be woken, and so does blk-throttle's dispatch), so the limit the copy
// is held to is the lower of 20 MB/s and what dd oflag=direct, the peer, reaches on the same
// drive just before and just after (the better of the two); the copy must not be faster than
// the limit either.
func TestThrottledCopy(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "netcopy-flat", SizeMB: 512, FS: "ext4", WriteMBps: labWriteMBps})
	before := ddDirectMBps(t, d.Mnt, 100)
	rec, err := copyTo(t, d, 200e6, nil)
	if err != nil {
		t.Fatal(err)
	}
	after := ddDirectMBps(t, d.Mnt, 100)
	n := rec.Tests[0].Network
	reach := min(labWriteMBps, max(before, after))
	t.Logf("network %.1f MB/s, drive %.1f MB/s, limit %s, drive waited %.0f%%, receiver waited %.0f%%; dd oflag=direct %.1f and %.1f MB/s (load: %s)",
		n.MBPerS, n.DriveMBPerS, n.Limit, n.DriveWaitPct, n.NetworkWaitPct, before, after, loadavg())
	if n.DriveMBPerS < reach*0.95 || n.DriveMBPerS > labWriteMBps*1.05 {
		t.Errorf("drive rate %.2f MB/s, want %.1f MB/s −5%% to %d MB/s +5%% (the limit, or what dd reached under this load)", n.DriveMBPerS, reach, labWriteMBps)
	}
	if n.Limit != "drive" || n.Ended != "complete" {
		t.Errorf("limit %q, ended %q", n.Limit, n.Ended)
	}
	if s := rec.Tests[0].Sustained; s == nil || s.CliffFound {
		t.Errorf("a flat limit shows a cliff: %+v", s)
	}
}

// TestCopyCliff: the drive's limit drops from 20 to 8 MB/s eight seconds into the copy, as a
// stick that overheats does; the copy finds the cliff there and both rates.
func TestCopyCliff(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "netcopy-cliff", SizeMB: 512, FS: "ext4", WriteMBps: labWriteMBps})
	const slowMBps = 8
	rec, err := copyTo(t, d, 8*labWriteMBps*1e6+10*slowMBps*1e6, func(*Sink) {
		time.Sleep(8 * time.Second)
		if err := d.SetLimits(0, 0, 0, slowMBps); err != nil {
			t.Error(err)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Tests[0].Sustained
	t.Logf("cliff %+v (load: %s)", s, loadavg())
	if !s.CliffFound {
		t.Fatalf("no cliff found: %+v, series %+v", s, rec.Tests[0].Series)
	}
	if !within(s.BeforeMBPerS, labWriteMBps, 0.10) || s.AfterMBPerS > slowMBps*1.25 || s.CliffAtS < 6 || s.CliffAtS > 11 {
		t.Errorf("cliff at %.1f s from %.1f to %.1f MB/s; want about 8 s, %d to %d MB/s", s.CliffAtS, s.BeforeMBPerS, s.AfterMBPerS, labWriteMBps, slowMBps)
	}
}

// TestCopyFillsDrive: something else fills the drive during the copy; the copy ends cleanly
// as drive-full, keeps what it measured, says so, and frees its space.
func TestCopyFillsDrive(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "netcopy-full", SizeMB: 256, FS: "ext4", WriteMBps: labWriteMBps})
	hog := filepath.Join(d.Mnt, "hog")
	rec, err := copyTo(t, d, 150e6, func(*Sink) {
		time.Sleep(2 * time.Second)
		// Allocate (not write) all but 8 MiB of what is left: instant, and it leaves the
		// copy no room.
		var st unix.Statfs_t
		if err := unix.Statfs(d.Mnt, &st); err != nil {
			t.Error(err)
			return
		}
		left := int64(st.Bavail)*int64(st.Bsize) - 8<<20
		if out, err := exec.Command("fallocate", "-l", strconv.FormatInt(left, 10), hog).CombinedOutput(); err != nil {
			t.Errorf("fallocate: %v %s", err, out)
		}
	})
	os.Remove(hog)
	if err == nil || !strings.Contains(err.Error(), "drive-full") {
		t.Errorf("sender: %v", err)
	}
	n := rec.Tests[0].Network
	if n.Ended != "drive-full" || n.ReceivedBytes == 0 || rec.BytesWritten == 0 {
		t.Errorf("network %+v, written %d", n, rec.BytesWritten)
	}
	found := false
	for _, w := range rec.Warnings {
		found = found || w.Code == "drive-full"
	}
	if !found {
		t.Errorf("warnings %+v", rec.Warnings)
	}
}

// ddDirectMBps writes mb MiB with dd oflag=direct bs=1M conv=fsync into dir, the peer's way,
// and returns its rate (MB/s); the file is removed.
func ddDirectMBps(t *testing.T, dir string, mb int) float64 {
	t.Helper()
	f := filepath.Join(dir, "dd-reference")
	defer os.Remove(f)
	start := time.Now()
	out, err := exec.Command("dd", "if=/dev/zero", "of="+f, "bs=1M", "count="+strconv.Itoa(mb), "oflag=direct", "conv=fsync").CombinedOutput()
	if err != nil {
		t.Fatalf("dd: %v %s", err, out)
	}
	return float64(mb<<20) / time.Since(start).Seconds() / 1e6
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}
