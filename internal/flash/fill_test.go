package flash

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fillDirsIn(t *testing.T, dir string) []string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, fillDirPrefix+"*"))
	return m
}

// TestFillGenuineDir fills 24 MiB of an ordinary directory (whatever filesystem the test's
// temporary directory is on, with or without O_DIRECT) and expects every byte back.
func TestFillGenuineDir(t *testing.T) {
	dir := t.TempDir()
	var phases []string
	r, err := Fill(context.Background(), FillOptions{Dir: dir, SizeBytes: 24 << 20, FileBytes: 8 << 20,
		Progress: func(p Progress) {
			if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
				phases = append(phases, p.Phase)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != Genuine || r.UsableBytes != 24<<20 || r.Fill.OKBytes != 24<<20 || r.Fill.Files != 3 {
		t.Fatalf("result %+v fill %+v", r, r.Fill)
	}
	if len(r.Fill.Series) == 0 || r.Fill.WriteMBPerS <= 0 || r.Fill.ReadMBPerS <= 0 {
		t.Errorf("rates missing: %+v", r.Fill)
	}
	var sum int64
	for i, p := range r.Fill.Series {
		if p.OffsetBytes != sum {
			t.Errorf("point %d at %d, want %d", i, p.OffsetBytes, sum)
		}
		sum += p.Bytes
	}
	if sum != r.ClaimedBytes {
		t.Errorf("series covers %d bytes of %d", sum, r.ClaimedBytes)
	}
	if strings.Join(phases, ",") != "write,read" {
		t.Errorf("progress phases %v", phases)
	}
	if left := fillDirsIn(t, dir); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

func TestFillTooBig(t *testing.T) {
	dir := t.TempDir()
	if _, err := Fill(context.Background(), FillOptions{Dir: dir, SizeBytes: 1 << 60}); err == nil || !strings.Contains(err.Error(), "smaller --size") {
		t.Errorf("err %v", err)
	}
	if _, err := Fill(context.Background(), FillOptions{Dir: filepath.Join(dir, "nope")}); err == nil {
		t.Error("a missing directory was filled")
	}
}

func TestFillInterruptedRemovesFiles(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	r, err := Fill(ctx, FillOptions{Dir: dir, SizeBytes: 64 << 20, FileBytes: 8 << 20, Progress: func(p Progress) {
		if p.Phase == "write" && p.Done >= 20<<20 {
			cancel()
		}
	}})
	if !errors.Is(err, ErrInterrupted) || !r.Interrupted {
		t.Fatalf("err %v, result %+v", err, r)
	}
	if left := fillDirsIn(t, dir); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}

// TestFillSweepsLeftovers: a killed run's directory (its owner gone: another boot, or a
// PID that is no longer that process) is removed by the next run; a live one is kept.
func TestFillSweepsLeftovers(t *testing.T) {
	dir := t.TempDir()
	mk := func(name, ownerText string, files ...string) string {
		wd := filepath.Join(dir, name)
		os.Mkdir(wd, 0o700)
		os.WriteFile(filepath.Join(wd, ownerFile), []byte(ownerText), 0o600)
		for _, f := range files {
			os.WriteFile(filepath.Join(wd, f), []byte("x"), 0o600)
		}
		return wd
	}
	dead := mk(fillDirPrefix+"1-dead", "1 some-other-boot 123\n", "0000.bin", "0001.bin")
	garbled := mk(fillDirPrefix+"2-garbled", "not an owner", "0000.bin")
	live := mk(fillDirPrefix+"3-live", selfOwner("").String(), "0000.bin")
	keep := mk(fillDirPrefix+"4-foreign", "1 x 1\n", "0000.bin", "notes.txt") // not all ours
	n, err := sweepLeftovers(dir, "")
	if err != nil || n != 4 {
		t.Errorf("swept %d files (%v), want 4", n, err)
	}
	for _, gone := range []string{dead, garbled} {
		if _, err := os.Stat(gone); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s not swept", gone)
		}
	}
	if _, err := os.Stat(filepath.Join(live, "0000.bin")); err != nil {
		t.Errorf("a live fill's file was swept: %v", err)
	}
	if _, err := os.Stat(filepath.Join(keep, "notes.txt")); err != nil {
		t.Errorf("a file that is not a fill's was removed: %v", err)
	}
}

func TestParseOwner(t *testing.T) {
	for _, s := range []string{"", "1 2", "x b c", "-4 b c", "1 b c d"} {
		if _, ok := parseOwner(s); ok {
			t.Errorf("parseOwner(%q) accepted", s)
		}
	}
	if o, ok := parseOwner("42 boot 99\n"); !ok || o.pid != 42 || o.bootID != "boot" || o.startTick != "99" {
		t.Errorf("parseOwner: %+v %v", o, ok)
	}
	if st := startTick("", os.Getpid()); st == "-" {
		t.Error("no start time for this process")
	}
}
