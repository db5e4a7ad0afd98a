package engine_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/testkit"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// tolerance is how close iomark must come to the emulated limit, and to fio on the device.
const tolerance = 0.03

func within(got, want, tol float64) bool { return got >= want*(1-tol) && got <= want*(1+tol) }

// TestMeasuresEmulatedMicroSD checks iomark against the limits of an emulated card and
// against fio run on the same device with the same job, each within ±3%.
func TestMeasuresEmulatedMicroSD(t *testing.T) {
	lab.Require(t)
	lab.NeedFio(t)
	d := lab.NewDrive(t, lab.MicroSD("engine-sd", ""))

	const runtime, ramp = 4 * time.Second, time.Second
	cases := []struct {
		name    string
		pattern engine.Pattern
		bs, qd  int
		eng     engine.Engine
		iops    float64 // expected IOPS, or 0
		mbPerS  float64 // expected MB/s, or 0
	}{
		{"randread-4k-qd1-psync", engine.RandRead, 4 << 10, 1, engine.EnginePsync, lab.MicroSDReadIOPS, 0},
		{"randread-4k-qd32-io_uring", engine.RandRead, 4 << 10, 32, engine.EngineIOUring, lab.MicroSDReadIOPS, 0},
		{"randwrite-4k-qd1-psync", engine.RandWrite, 4 << 10, 1, engine.EnginePsync, lab.MicroSDWriteIOPS, 0},
		{"randwrite-4k-qd32-io_uring", engine.RandWrite, 4 << 10, 32, engine.EngineIOUring, lab.MicroSDWriteIOPS, 0},
		{"randwrite-4k-qd32-psync", engine.RandWrite, 4 << 10, 32, engine.EnginePsync, lab.MicroSDWriteIOPS, 0},
		// 1 MiB at QD1: blk-throttle counts split bios twice at QD>1 (docs/decisions.md).
		{"read-1m-qd1-psync", engine.Read, 1 << 20, 1, engine.EnginePsync, 0, lab.MicroSDReadMBps},
		{"write-1m-qd1-psync", engine.Write, 1 << 20, 1, engine.EnginePsync, 0, lab.MicroSDWriteMBps},
		// io_uring splits a 1 MiB write even at QD1 here, which blk-throttle counts twice
		// (fio shows the same halving): 512 KiB keeps the check about the engine.
		{"write-512k-qd1-io_uring", engine.Write, 512 << 10, 1, engine.EngineIOUring, 0, lab.MicroSDWriteMBps},
		{"read-512k-qd4-io_uring", engine.Read, 512 << 10, 4, engine.EngineIOUring, 0, lab.MicroSDReadMBps},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// A machine shared with other work can starve either tool for a moment, so each
			// case gets up to three alternating attempts; one clean attempt must show iomark
			// within ±3% of the limit and of fio. Every attempt is logged.
			var problems []string
			for attempt := 1; attempt <= 3; attempt++ {
				problems = measureAgainstFio(t, d, c.pattern, c.bs, c.qd, c.eng, c.iops, c.mbPerS, runtime, ramp)
				if len(problems) == 0 {
					return
				}
				t.Logf("attempt %d: %s", attempt, strings.Join(problems, "; "))
			}
			t.Errorf("no attempt of three agreed: %s", strings.Join(problems, "; "))
		})
	}
}

// measureAgainstFio runs the job with iomark, then with fio, and lists what is out of
// tolerance (nothing when all agrees).
func measureAgainstFio(t *testing.T, d *lab.Drive, p engine.Pattern, bs, qd int, eng engine.Engine, wantIOPS, wantMBps float64, runtime, ramp time.Duration) []string {
	t.Helper()
	res, err := engine.Run(context.Background(), engine.Spec{
		Target: d.Dev, Pattern: p, BlockSize: bs, QD: qd, Jobs: 1, Engine: eng,
		Runtime: runtime, Ramp: ramp, Direct: true, Destructive: true, Confirm: d.Dev,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != eng {
		t.Fatalf("ran %s, asked for %s", res.Engine, eng)
	}
	ioengine := map[engine.Engine]string{engine.EnginePsync: "psync", engine.EngineIOUring: "io_uring"}[eng]
	fio, err := lab.RunFio("--name=check", "--filename="+d.Dev, "--direct=1", "--rw="+string(p),
		fmt.Sprintf("--bs=%d", bs), fmt.Sprintf("--iodepth=%d", qd), "--ioengine="+ioengine,
		"--time_based", fmt.Sprintf("--runtime=%d", int(runtime.Seconds())), fmt.Sprintf("--ramp_time=%d", int(ramp.Seconds())))
	if err != nil {
		t.Fatal(err)
	}
	fioMBps := (fio.ReadBytesPerS + fio.WriteBytesPerS) / 1e6
	t.Logf("iomark %.0f IOPS %.2f MB/s p50 %.0f µs; fio %.0f IOPS %.2f MB/s", res.IOPS, res.MBPerS, res.LatUS.P50, fio.IOPS(), fioMBps)
	var problems []string
	if wantIOPS > 0 {
		if !within(res.IOPS, wantIOPS, tolerance) {
			problems = append(problems, fmt.Sprintf("iomark measured %.0f IOPS; the drive is limited to %.0f (±3%%)", res.IOPS, wantIOPS))
		}
		if !within(res.IOPS, fio.IOPS(), tolerance) {
			problems = append(problems, fmt.Sprintf("iomark %.0f IOPS vs fio %.0f IOPS: more than 3%% apart", res.IOPS, fio.IOPS()))
		}
	}
	if wantMBps > 0 {
		if !within(res.MBPerS, wantMBps, tolerance) {
			problems = append(problems, fmt.Sprintf("iomark measured %.2f MB/s; the drive is limited to %.0f MB/s (±3%%)", res.MBPerS, wantMBps))
		}
		if !within(res.MBPerS, fioMBps, tolerance) {
			problems = append(problems, fmt.Sprintf("iomark %.2f MB/s vs fio %.2f MB/s: more than 3%% apart", res.MBPerS, fioMBps))
		}
	}
	return problems
}

// TestBlockDeviceSafety: a device is read-only unless named twice, and never written while
// mounted.
func TestBlockDeviceSafety(t *testing.T) {
	lab.Require(t)
	bare := lab.NewDrive(t, lab.Spec{Name: "engine-safety", SizeMB: 64})
	spec := func(p engine.Pattern) engine.Spec {
		return engine.Spec{Target: bare.Dev, Pattern: p, BlockSize: 4096, QD: 1, Jobs: 1,
			Engine: engine.EnginePsync, Runtime: 200 * time.Millisecond, Direct: true}
	}
	before, err := os.ReadFile(bare.Img)
	if err != nil {
		t.Fatal(err)
	}
	for name, mod := range map[string]func(*engine.Spec){
		"no --destructive":   func(*engine.Spec) {},
		"no --confirm":       func(s *engine.Spec) { s.Destructive = true },
		"--confirm mismatch": func(s *engine.Spec) { s.Destructive, s.Confirm = true, "/dev/null" },
	} {
		s := spec(engine.RandWrite)
		mod(&s)
		if _, err := engine.Run(context.Background(), s); err == nil || !strings.Contains(err.Error(), "--confirm") {
			t.Errorf("%s: err = %v, want a refusal naming --confirm", name, err)
		}
	}
	after, _ := os.ReadFile(bare.Img)
	if string(before) != string(after) {
		t.Fatal("a refused job changed the device")
	}
	if res, err := engine.Run(context.Background(), spec(engine.RandRead)); err != nil || res.IOs == 0 {
		t.Fatalf("read-only job on a device: %v", err)
	}
	s := spec(engine.RandWrite)
	s.Destructive, s.Confirm = true, bare.Dev
	if res, err := engine.Run(context.Background(), s); err != nil || res.Write.IOs == 0 {
		t.Fatalf("confirmed write job: %v", err)
	}

	mounted := lab.NewDrive(t, lab.Spec{Name: "engine-mounted", SizeMB: 64, FS: "ext4"})
	s = spec(engine.RandWrite)
	s.Target, s.Destructive, s.Confirm = mounted.Dev, true, mounted.Dev
	if _, err := engine.Run(context.Background(), s); err == nil || !strings.Contains(err.Error(), "mounted") {
		t.Fatalf("write to a mounted device: err = %v, want a refusal saying it is mounted", err)
	}
}

// TestFullFilesystemFailsCleanly fills the filesystem while the job lays out its file: the
// job must end with a clear ENOSPC message and leave no file of its own.
func TestFullFilesystemFailsCleanly(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "engine-full", SizeMB: 256, FS: "ext4"})
	dir := d.Mnt + "/bench"
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	filler := d.Mnt + "/filler"
	s := engine.Spec{Target: dir, Pattern: engine.RandRead, BlockSize: 4096, QD: 1, Jobs: 1,
		Engine: engine.EnginePsync, WorkingSetBytes: 96 << 20, Runtime: time.Second, Direct: true,
		Log: func(string, ...any) {
			// Called as layout begins: take the space the free-space check saw.
			f, err := os.Create(filler)
			if err == nil {
				buf := make([]byte, 1<<20)
				for f.Write(buf); err == nil; _, err = f.Write(buf) {
				}
				f.Sync()
				f.Close()
			}
		}}
	_, err := engine.Run(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "no space left") {
		t.Fatalf("err = %v, want one saying no space is left", err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		t.Errorf("left behind after ENOSPC: %s", e.Name())
	}
}

// TestReadOnlyFilesystemFailsClearly: a directory on a read-only mount ends the job with a
// message that says so, not a bare errno.
func TestReadOnlyFilesystemFailsClearly(t *testing.T) {
	if os.Geteuid() != 0 {
		testkit.Require(t, "mounting a read-only tmpfs needs root: run the tests as root (sudo)")
	}
	dir := t.TempDir()
	if err := syscall.Mount("iomark-ro", dir, "tmpfs", syscall.MS_RDONLY, "size=16m"); err != nil {
		t.Skipf("cannot mount tmpfs here: %v", err)
	}
	defer syscall.Unmount(dir, 0)
	_, err := engine.Run(context.Background(), engine.Spec{Target: dir, Pattern: engine.RandRead, BlockSize: 4096,
		QD: 1, Jobs: 1, WorkingSetBytes: 1 << 20, Runtime: time.Second, Direct: true})
	if err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Fatalf("err = %v, want one saying the filesystem is read-only", err)
	}
}

// TestUnmountRightAfterIOUring: a user unmounts the drive as soon as iomark is done. The
// ring's registered file must not keep the filesystem busy after Run returns.
func TestUnmountRightAfterIOUring(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "engine-umount", SizeMB: 128, FS: "ext4"})
	_, err := engine.Run(context.Background(), engine.Spec{Target: d.Mnt, Pattern: engine.RandRW, RWMixRead: 50,
		BlockSize: 4096, QD: 8, Jobs: 2, Engine: engine.EngineIOUring, WorkingSetBytes: 16 << 20,
		Runtime: 300 * time.Millisecond, Direct: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Down(); err != nil {
		t.Fatalf("unmount right after an io_uring job: %v", err)
	}
}
