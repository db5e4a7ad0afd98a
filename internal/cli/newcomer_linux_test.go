package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestNewcomerFirstCommand is the newcomer's test: the binary built as a user builds it,
// the README's first command (`iomark run`, no argument) in a scratch directory on an
// emulated Pi 4 microSD card, with an empty home. It checks the shape of what is printed —
// what the run will do and its byte budget before it starts, every quick test, the score and
// what it means, the bytes written, the run id and where it was saved — that the run was
// saved where the README says, and that nothing is left: no file in the scratch directory,
// and once the drive is taken down no loop device.
func TestNewcomerFirstCommand(t *testing.T) {
	lab.Require(t)
	bin := filepath.Join(t.TempDir(), "iomark")
	build := exec.Command("go", "build", "-o", bin, "github.com/iomark/iomark/cmd/iomark")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	d := lab.NewDrive(t, lab.Spec{Name: "newcomer", SizeMB: 512, FS: "ext4",
		ReadIOPS: 2600, WriteIOPS: 700, ReadMBps: 40, WriteMBps: 20})
	scratch := filepath.Join(d.Mnt, "scratch")
	if err := os.Mkdir(scratch, 0o755); err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	cmd := exec.Command(bin, "run")
	cmd.Dir = scratch
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("iomark run: %v\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	out, errOut := stdout.String(), stderr.String()
	t.Logf("stderr:\n%s\nstdout:\n%s", errOut, out)

	// Before the first I/O: what will happen, and the most it will write.
	first := strings.SplitN(errOut, "\n", 4)
	if len(first) < 3 || !strings.Contains(first[0], "quick on "+scratch) || !strings.Contains(first[1], "read and write tests") ||
		!strings.Contains(first[2], "writes at most 512 MiB") {
		t.Errorf("stderr does not start with the run's decision and budget:\n%s", errOut)
	}
	for _, want := range []string{"profile quick", "seq-read-1m", "seq-write-1m", "rand-read-4k-qd1",
		"rand-write-4k-qd1", "rand-read-4k-qd32", "rand-write-4k-qd32", "iomark score:"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	// Bytes written, in the same units as the budget's SI figure: at most 512 MiB.
	m := regexp.MustCompile(`wrote ([0-9.]+) MB in [0-9.]+ s`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("stdout does not say how much was written in how long:\n%s", out)
	}
	if mb, _ := strconv.ParseFloat(m[1], 64); mb <= 128*1.048576 || mb > 512*1.048576 {
		t.Errorf("wrote %s MB: want the 128 MiB layout and at most the 512 MiB budget", m[1])
	}
	db := filepath.Join(home, ".local", "share", "iomark", "results.db")
	if _, err := os.Stat(db); err != nil {
		t.Errorf("the run was not saved where the README says: %v", err)
	}
	// The score says what it means; the run says its id, where it was saved and how to see it.
	if !strings.Contains(out, "iomark score: ") || !strings.Contains(out, profile.IomarkScoreMeaning()) {
		t.Errorf("stdout does not say what the score means (%q):\n%s", profile.IomarkScoreMeaning(), out)
	}
	saved := regexp.MustCompile("run (\\S+) saved in (\\S+) \\(`iomark show (\\S+)`").FindStringSubmatch(out)
	if saved == nil || saved[2] != db || !strings.HasSuffix(saved[1], saved[3]) {
		t.Errorf("stdout does not give the run id and where it was saved (%s):\n%s", db, out)
	}

	// Nothing left: no file in the scratch directory, no loop device once the drive is down.
	if ents, _ := os.ReadDir(scratch); len(ents) != 0 {
		t.Errorf("left in the scratch directory: %v", ents)
	}
	img := d.Img
	if err := d.Down(); err != nil {
		t.Fatal(err)
	}
	if out, _ := exec.Command("losetup", "-j", img).Output(); len(bytes.TrimSpace(out)) != 0 {
		t.Errorf("a loop device is still attached to the drive's image: %s", out)
	}
	if _, err := os.Stat(img); !os.IsNotExist(err) {
		t.Errorf("the drive's image is left: %v", err)
	}
}
