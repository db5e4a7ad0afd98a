package engine

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/testkit"
)

// Each failure the issue names must reach the user as a sentence with a way out.
func TestIOErrorMessages(t *testing.T) {
	tgt := &target{kind: kindFile, path: "/mnt/x/iomark.tmp", direct: true, align: 4096}
	for _, c := range []struct {
		errno unix.Errno
		want  string
	}{
		{unix.ENOSPC, "no space left"},
		{unix.EDQUOT, "no space left"},
		{unix.EROFS, "read-only"},
		{unix.EIO, "dmesg"},
		{unix.ENODEV, "went away"},
		{unix.ENXIO, "went away"},
		{unix.ENOMEDIUM, "went away"},
		{unix.EINVAL, "--buffered"},
	} {
		err := ioError(tgt, true, 4096, 4096, c.errno)
		if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), tgt.path) {
			t.Errorf("%v: %q lacks %q or the device", c.errno, err, c.want)
		}
	}
	tgt.kind = kindBlock
	if err := ioError(tgt, true, 4096, 4096, unix.ENOSPC); !strings.Contains(err.Error(), "past the device's end") || strings.Contains(err.Error(), "filesystem") {
		t.Errorf("ENOSPC on a block device: %q, want the device's end and no filesystem advice", err)
	}
	if err := openError("/mnt/x", true, unix.EINVAL); !strings.Contains(err.Error(), "direct I/O") {
		t.Errorf("O_DIRECT refused at open: %q", err)
	}
	if err := errShortIO(tgt, false, 0, 4096, 512); !strings.Contains(err.Error(), "only 512 bytes") {
		t.Errorf("short read: %q", err)
	}
}

// TestAutoFallsBackWhenIOUringIsDisabled turns io_uring off for the whole machine for a
// moment (kernel.io_uring_disabled=2, as hardened systems set it) and checks that auto runs
// psync and says why, while an explicit io_uring request fails with advice.
func TestAutoFallsBackWhenIOUringIsDisabled(t *testing.T) {
	const knob = "/proc/sys/kernel/io_uring_disabled"
	old, err := os.ReadFile(knob)
	if err != nil || os.Geteuid() != 0 {
		testkit.Require(t, fmt.Sprintf("toggling io_uring needs root and %s: %v", knob, err))
	}
	if err := os.WriteFile(knob, []byte("2"), 0); err != nil {
		t.Skipf("cannot disable io_uring here: %v", err)
	}
	defer os.WriteFile(knob, old, 0)

	dir := t.TempDir()
	s := Spec{Target: dir, Pattern: RandRead, BlockSize: 4096, QD: 4, Jobs: 1, Engine: EngineAuto,
		WorkingSetBytes: 1 << 20, Runtime: 200 * time.Millisecond, Direct: true}
	res, err := Run(context.Background(), s)
	os.WriteFile(knob, old, 0) // give the machine its io_uring back at once
	if err != nil {
		t.Fatal(err)
	}
	if res.Engine != EnginePsync || !strings.Contains(res.EngineNote, "io_uring unavailable") {
		t.Errorf("engine %s note %q: want psync with the reason", res.Engine, res.EngineNote)
	}
	os.WriteFile(knob, []byte("2"), 0)
	s.Engine = EngineIOUring
	_, err = Run(context.Background(), s)
	os.WriteFile(knob, old, 0)
	if err == nil || !strings.Contains(err.Error(), "--engine psync") {
		t.Errorf("explicit io_uring while disabled: err = %v, want advice to use psync", err)
	}
}
