package runner

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// logLines collects what a run says through Env.Log, with the progress phases interleaved
// ("progress PHASE"), so a test can tell what was said before the first I/O.
type logLines struct {
	mu    sync.Mutex
	lines []string
}

func (l *logLines) log(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

func (l *logLines) progress(e Event) { l.log("progress %s", e.Phase) }

func (l *logLines) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Join(l.lines, "\n")
}

// deviceIO is what the block layer counted for a device: sectors read and written.
func deviceIO(t *testing.T, dev string) (readSectors, writtenSectors int64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(dev), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b))
	if len(f) < 7 {
		t.Fatalf("%s stat: %q", dev, b)
	}
	fmt.Sscan(f[2], &readSectors)
	fmt.Sscan(f[6], &writtenSectors)
	return readSectors, writtenSectors
}

// A path that does not exist is refused before anything is done, with the
// nearest existing directory (or `iomark list` for devices) named, and nothing is created.
func TestMissingTargetsAreRefused(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ target, want string }{
		{filepath.Join(dir, "mnt", "usb"), "the nearest existing directory is " + dir},
		{"/dev/iomark-no-such-disk", "`iomark list`"},
		{"/dev/null", "under /dev only block devices are targets"},
		{"/dev/shm", "under /dev only block devices are targets"},
	} {
		var l logLines
		out, err := Run(context.Background(), *profile.Quick(), Env{Target: c.target, Log: l.log, Progress: l.progress})
		if err == nil || !strings.Contains(err.Error(), c.want) || out != nil {
			t.Errorf("%s: record %v, err %v; want a refusal saying %q", c.target, out != nil, err, c.want)
		}
		if l.text() != "" {
			t.Errorf("%s: a refused run said or did %q", c.target, l.text())
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "mnt")); !os.IsNotExist(err) {
		t.Errorf("the refused run created something: %v", err)
	}
	if _, err := os.Stat("/dev/iomark-no-such-disk"); !os.IsNotExist(err) {
		t.Errorf("a file appeared in /dev: %v", err)
	}
}

// What a run may do is decided before its first I/O, the same way for
// every kind of target, and said at the start: a mounted device with --destructive --confirm
// is refused without a byte read; an existing file iomark did not create gets its read tests
// only, said before the first test; a write-only profile on a read-only target is refused.
func TestRefusalsComeBeforeTheFirstIO(t *testing.T) {
	lab.Require(t)
	mounted := lab.NewDrive(t, lab.Spec{Name: "decide-mnt", SizeMB: 256, FS: "ext4"})
	bare := lab.NewDrive(t, lab.Spec{Name: "decide-bare", SizeMB: 64})

	for _, c := range []struct {
		name string
		p    *profile.Profile
		env  Env
		dev  string
		want string
	}{
		{"mounted, --destructive --confirm", profile.Quick(), Env{Target: mounted.Dev, Destructive: true, Confirm: mounted.Dev}, mounted.Dev, "mounted"},
		{"--confirm names another device", profile.Quick(), Env{Target: bare.Dev, Destructive: true, Confirm: mounted.Dev}, bare.Dev, "--confirm"},
		{"write-only profile on a device", profile.Sustained(), Env{Target: bare.Dev}, bare.Dev, "only writes"},
	} {
		r0, w0 := deviceIO(t, c.dev)
		var l logLines
		c.env.Log, c.env.Progress = l.log, l.progress
		start := time.Now()
		out, err := Run(context.Background(), *c.p, c.env)
		if err == nil || out != nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: record %v, err %v; want a refusal saying %q", c.name, out != nil, err, c.want)
		}
		if r1, w1 := deviceIO(t, c.dev); r1 != r0 || w1 != w0 {
			t.Errorf("%s: the refused run read %d and wrote %d sectors of %s", c.name, r1-r0, w1-w0, c.dev)
		}
		if l.text() != "" {
			t.Errorf("%s: the refused run said or did %q", c.name, l.text())
		}
		t.Logf("%s: refused after %v: %v", c.name, time.Since(start).Round(time.Millisecond), err)
	}

	// A file on the drive that iomark did not create: read tests only, said first.
	path := filepath.Join(mounted.Mnt, "photos.img")
	data := make([]byte, 8<<20)
	for i := range data {
		data[i] = byte(i * 7)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var l logLines
	p := *profile.Quick()
	p.Tests = p.Tests[:2] // seq-read-1m and seq-write-1m: the decision is what is tested
	out, err := Run(context.Background(), p, Env{Target: path, Log: l.log, Progress: l.progress})
	if err != nil {
		t.Fatal(err)
	}
	said := l.text()
	first := strings.Index(said, "progress")
	decided := strings.Index(said, "read tests only: seq-write-1m skipped")
	if decided < 0 || first < 0 || decided > first || !strings.Contains(said[:first], "writes nothing") {
		t.Errorf("the decision was not said before the first I/O:\n%s", said)
	}
	// One write-skipped warning naming the skipped tests (stats may add outliers or
	// single-run for the read test on a loaded machine: not what is tested here).
	skipped := 0
	for _, w := range out.Warnings {
		if w.Code == WarnWriteSkipped {
			skipped++
		}
	}
	if out.Target.Kind != "file" || len(out.Tests) != 1 || out.BytesWritten != 0 || skipped != 1 {
		t.Errorf("kind %s, %d tests, %d bytes written, warnings %v: want the read test only and one write-skipped warning", out.Target.Kind, len(out.Tests), out.BytesWritten, out.Warnings)
	}
	if got, _ := os.ReadFile(path); string(got) != string(data) {
		t.Error("the user's file changed")
	}
}

// helperEnv names the directory TestHelperQuickRun measures in when the test binary runs as
// a helper process (to be killed by the test that started it).
const helperEnv = "IOMARK_RUNNER_HELPER_DIR"

// TestHelperQuickRun is not a test: run as a helper process, it measures quick in the
// directory helperEnv names and prints "measuring" when the first test starts.
func TestHelperQuickRun(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("helper process only")
	}
	var once sync.Once
	_, err := Run(context.Background(), *profile.Quick(), Env{Target: dir, Progress: func(e Event) {
		if e.Phase == "measure" {
			once.Do(func() { fmt.Println("measuring") })
		}
	}})
	fmt.Println("finished", err)
}

// killMidRun starts a quick run in dir in a helper process and kills it with SIGKILL once it
// measures: nothing of iomark's gets to clean up.
func killMidRun(t *testing.T, dir string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperQuickRun$", "-test.v")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	measuring := false
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "measuring") {
			measuring = true
			break
		}
		if strings.HasPrefix(sc.Text(), "finished") {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if !measuring {
		t.Fatal("the helper run never started measuring")
	}
}

// freeBytes is what statfs says is available in dir.
func freeBytes(t *testing.T, dir string) int64 {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	return int64(st.Bavail) * int64(st.Bsize)
}

// Kill -9 mid-run leaves nothing where the filesystem has O_TMPFILE (ext4):
// no file, and the space comes back. Where it has not (vfat, exfat, most FUSE filesystems), the named test file stays, and
// the next run removes it, saying so.
func TestKill9LeavesNothing(t *testing.T) {
	lab.Require(t)
	ext4 := lab.NewDrive(t, lab.Spec{Name: "kill-ext4", SizeMB: 512, FS: "ext4"})
	before := freeBytes(t, ext4.Mnt)
	killMidRun(t, ext4.Mnt)
	if left := leftovers(t, ext4.Mnt); len(left) > 0 {
		t.Errorf("kill -9 left %v on ext4", left)
	}
	// The kernel frees an unnamed file when its last descriptor closes: with the process.
	// Allow it a moment to finish (the check is of space, not of speed).
	var after int64
	for range 50 {
		if after = freeBytes(t, ext4.Mnt); after >= before-profile.MiB {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if after < before-profile.MiB {
		t.Errorf("free space %d MiB after kill -9, %d MiB before: the test file's space was not returned", after/profile.MiB, before/profile.MiB)
	}

	// A filesystem without O_TMPFILE: a FUSE passthrough of a directory on the ext4 drive.
	under := filepath.Join(ext4.Mnt, "under-fuse")
	if err := os.Mkdir(under, 0o755); err != nil {
		t.Fatal(err)
	}
	nameOnly := struct{ Mnt string }{lab.PassthroughFS(t, under)}
	killMidRun(t, nameOnly.Mnt)
	left := leftovers(t, nameOnly.Mnt)
	if len(left) != 1 || !strings.HasPrefix(filepath.Base(left[0]), ".iomark-run-") {
		t.Fatalf("after kill -9 on a filesystem without O_TMPFILE: %v, want the one named test file the next run must remove", left)
	}
	var l logLines
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// The next run removes the leftover before its layout; stop it there (this process serves
	// the FUSE filesystem: its own measuring would wait on itself).
	out, err := Run(ctx, *profile.Quick(), Env{Target: nameOnly.Mnt, Log: func(format string, args ...any) {
		l.log(format, args...)
		if strings.HasPrefix(format, "removed") {
			cancel()
		}
	}})
	if err != nil || out == nil {
		t.Fatalf("next run: %v", err)
	}
	if !strings.Contains(l.text(), "removed "+left[0]) || !strings.Contains(l.text(), "left by an earlier run") {
		t.Errorf("the next run did not say it removed the leftover:\n%s", l.text())
	}
	if rest := leftovers(t, nameOnly.Mnt); len(rest) > 0 {
		t.Errorf("left after the next run: %v", rest)
	}
}

// A lazy unmount (umount -l) mid-run detaches the filesystem while the run's
// open test file keeps it working: the run must notice, stop and say so, keeping the figures
// measured before.
func TestLazyUnmountIsReported(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "lazy-umount", SizeMB: 512, FS: "ext4", ReadMBps: 40, WriteMBps: 20})
	var once sync.Once
	var l logLines
	out, err := Run(context.Background(), *profile.Quick(), Env{Target: d.Mnt, Log: l.log, Progress: func(e Event) {
		if e.Phase == "done" && e.Index == 1 {
			once.Do(func() {
				if err := d.LazyUnmount(); err != nil {
					t.Error(err)
				}
			})
		}
	}})
	if err == nil || !strings.Contains(err.Error(), "unmounted") {
		t.Fatalf("err = %v, want the unmount reported", err)
	}
	if out == nil || out.Interrupted || len(out.Tests) == 0 || len(out.Tests) == len(profile.Quick().Tests) {
		t.Fatalf("record %+v: want the tests before the unmount, and not all of them", out)
	}
	found := false
	for _, w := range out.Warnings {
		found = found || w.Code == WarnUnmounted
	}
	if !found {
		t.Errorf("warnings %v: want %s", out.Warnings, WarnUnmounted)
	}
	t.Logf("stopped after %d tests: %v", len(out.Tests), err)
}

// On a fast drive (the unthrottled RAM drive) every profile keeps to its
// byte budget, and its write tests still get several runs and an interval, not one run.
func TestFastDriveKeepsTheByteBudget(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "budget-fast", SizeMB: 1536, FS: "ext4"})
	for _, name := range []string{"quick", "pibenchmarks", "a1"} {
		t.Run(name, func(t *testing.T) {
			p, _ := profile.ByName(name)
			var l logLines
			_, w0 := deviceIO(t, d.Dev)
			out, err := Run(context.Background(), *p, Env{Target: d.Mnt, Log: l.log})
			if err != nil {
				t.Fatal(err)
			}
			_, w1 := deviceIO(t, d.Dev)
			t.Logf("%s: wrote %d MiB (the device counted %d MiB), budget %d MiB, %s's %d MiB", name, out.BytesWritten/profile.MiB,
				(w1-w0)*512/profile.MiB, p.MaxBytesWritten/profile.MiB, p.Peer.Tool, p.Peer.Bytes/profile.MiB)
			if out.BytesWritten > p.MaxBytesWritten || out.BytesWritten == 0 {
				t.Errorf("wrote %d bytes, budget %d", out.BytesWritten, p.MaxBytesWritten)
			}
			if !strings.Contains(l.text(), "writes at most "+fmtBytes(p.MaxBytesWritten)) {
				t.Errorf("the budget was not said at the start:\n%s", l.text())
			}
			for _, tc := range out.Tests {
				pt := profileTest(p, tc.Name)
				if pt.Writes() && tc.Runs < min(pt.MinRuns, pt.MaxRuns) {
					t.Errorf("%s: %d runs, want at least %d (an interval) within the budget", tc.Name, tc.Runs, pt.MinRuns)
				}
			}
			if left := leftovers(t, d.Mnt); len(left) > 0 {
				t.Errorf("left behind: %v", left)
			}
		})
	}
}

func profileTest(p *profile.Profile, name string) profile.Test {
	for _, t := range p.Tests {
		if t.Name == name {
			return t
		}
	}
	return profile.Test{}
}

// A slow after-cliff rate settles. 1 MiB writes at 40 MB/s fall to 5 MB/s
// (one I/O every 0.2 s: per-second samples read 4.2 or 5.2 MB/s), and the write stops once
// that rate has held, well before its byte bound, with the settled rate within ±5%.
func TestSustainedSettlesAtASlowRate(t *testing.T) {
	d := unmountableDrive(t, lab.Spec{Name: "sus-slow", SizeMB: 1024, WriteMBps: 40})
	// The bound is 780 MiB: at 5 MB/s after 200 MB it would take two more minutes to reach.
	p := sustainedOnly(780*profile.MiB, 4*time.Minute, 15*time.Second)

	var lowered sync.Once
	start := time.Now()
	env := Env{Target: d.Mnt, Log: t.Logf, Progress: func(e Event) {
		if e.Phase == "measure" && time.Since(start) > 5*time.Second {
			lowered.Do(func() {
				if err := d.SetLimits(0, 0, 0, 5); err != nil {
					t.Error(err)
				}
			})
		}
	}}
	out, err := Run(context.Background(), p, env)
	if err != nil {
		t.Fatal(err)
	}
	s := out.Tests[0].Sustained
	t.Logf("sustained: %+v; %.1f s, %d MiB", *s, out.DurationS, out.BytesWritten/profile.MiB)
	if !s.CliffFound || !within(s.BeforeMBPerS, 40, 0.1) {
		t.Errorf("cliff %+v: want one from 40 MB/s", *s)
	}
	if !s.SteadyState || !within(s.SteadyMBPerS, 5, labTolerance) {
		t.Errorf("after the cliff %+v: want steady at 5 MB/s ±5%%", *s)
	}
	if s.WrittenBytes >= 600*profile.MiB {
		t.Errorf("wrote %d MiB: the write should have stopped once 5 MB/s held, not run to its bound", s.WrittenBytes/profile.MiB)
	}
}

// The leftover of a crashed run on a filesystem without O_TMPFILE counted
// as used space, so the next run failed for want of room. Leftovers whose process is gone
// count as free in the decision and are removed before the layout; a leftover of a process
// that still runs is never touched.
func TestLeftoversCountAsFree(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "leftover", SizeMB: 320, FS: "ext4"})
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(d.Mnt, fmt.Sprintf(".iomark-run-%d-abc123.tmp", gone.Process.Pid))
	alive := filepath.Join(d.Mnt, fmt.Sprintf(".iomark-job-%d-def456.tmp", os.Getpid()))
	for _, f := range []struct {
		path string
		mib  int
	}{{dead, 150}, {alive, 1}} {
		if err := os.WriteFile(f.path, make([]byte, f.mib<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := *profile.Quick()
	dec, err := Decide(p, Env{Target: d.Mnt})
	if err != nil {
		t.Fatalf("the leftover's space was not counted as free: %v", err)
	}
	if len(dec.Leftovers) != 1 || dec.Leftovers[0].Path != dead {
		t.Errorf("leftovers %+v, want only the dead process's", dec.Leftovers)
	}
	var l logLines
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, err := Run(ctx, p, Env{Target: d.Mnt, Log: func(format string, args ...any) {
		l.log(format, args...)
		if strings.HasPrefix(format, "laying out") {
			cancel() // the leftover is handled by then: nothing more to see
		}
	}})
	if err != nil || out == nil {
		t.Fatalf("run: %v", err)
	}
	if _, err := os.Stat(dead); !os.IsNotExist(err) || !strings.Contains(l.text(), "removed "+dead) {
		t.Errorf("the dead process's leftover is still there (%v) or was not reported:\n%s", err, l.text())
	}
	if _, err := os.Stat(alive); err != nil {
		t.Errorf("the live process's file was removed: %v", err)
	}
	os.Remove(alive)
}
