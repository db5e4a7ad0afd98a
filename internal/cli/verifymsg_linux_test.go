package cli

import (
	"strings"
	"syscall"
	"testing"

	"github.com/iomark/iomark/internal/testkit/lab"
)

// TestVerifyErrorsComeBeforeAnyReport: a directory verify cannot write in (here a read-only
// filesystem) and a bad --size are refused before anything is written or reported.
func TestVerifyErrorsComeBeforeAnyReport(t *testing.T) {
	disk := tinyDisk(t, 64<<20) // room for a fill: only the permission stops it
	if err := syscall.Mount("", disk, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"verify", disk, "--no-save"}, exitFailure, "cannot write in " + disk},
		{[]string{"verify", t.TempDir(), "--size", "lots", "--no-save"}, exitUsage, "--size"},
	} {
		code, out, errOut := runCLI(t, c.args...)
		t.Logf("iomark %s: exit %d\n%s%s", strings.Join(c.args, " "), code, out, errOut)
		if code != c.code || out != "" || !strings.Contains(errOut, c.want) {
			t.Errorf("exit %d, want %d with no report and %q", code, c.code, c.want)
		}
	}
}

// TestPartialVerifySaysWhatItChecked: `verify DIR --size` reports the bytes it checked and
// that the rest of the drive was not, never GENUINE for the whole drive.
func TestPartialVerifySaysWhatItChecked(t *testing.T) {
	disk := tinyDisk(t, 64<<20)
	code, out, errOut := runCLI(t, "verify", disk, "--size", "16M", "--no-save")
	t.Logf("iomark verify %s --size 16M: exit %d\n%s%s", disk, code, out, errOut)
	if code != 0 || !strings.Contains(out, "GENUINE as far as checked — the 16.8 MB written and read back") || !strings.Contains(out, "not checked: the other") {
		t.Errorf("a partial verify does not say what it checked")
	}
	if strings.Contains(out, "it claims held") {
		t.Errorf("a partial verify speaks for the whole drive")
	}
}

// TestFillSaysBytesAndTimeUpFront: a fill on a throttled drive says the exact bytes it will
// write before writing, and an estimate of the time once the first seconds have shown the
// drive's rate.
func TestFillSaysBytesAndTimeUpFront(t *testing.T) {
	lab.Require(t)
	d := lab.NewDrive(t, lab.Spec{Name: "cli-fill-eta", SizeMB: 256, WriteMBps: 20, ReadMBps: 40, FS: "ext4"})
	code, out, errOut := runCLI(t, "verify", d.Mnt, "--size", "96M", "--no-save")
	t.Logf("iomark verify %s --size 96M: exit %d\n%s%s", d.Mnt, code, errOut, out)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	bytesAt := strings.Index(errOut, "the fill of test files: writes 100.7 MB (100663296 bytes) and reads 100.7 MB (100663296 bytes)")
	timeAt := strings.Index(errOut, "writing and reading back take about")
	if bytesAt < 0 || timeAt < bytesAt {
		t.Errorf("the bytes are not said before the estimate, or either is missing")
	}
}
