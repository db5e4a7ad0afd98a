package lab

import (
	"os"
	"testing"
)

// NewDrive brings up a drive for a test and takes it down when the test ends. It skips the
// test, saying what is missing, where drives are unavailable (not root, no loop driver, no
// blkio controller, no mkfs.ext4 for an ext4 spec); any other failure fails the test.
func NewDrive(t testing.TB, s Spec) *Drive {
	t.Helper()
	if err := availableFor(s); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run the emulated-drive tests (as root, with loop devices and blkio): %v", err)
		}
		t.Skipf("%v", err)
	}
	d, err := Up(s)
	if err != nil {
		t.Fatalf("bring up drive: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Down(); err != nil {
			t.Errorf("take down drive %s: %v", s.Name, err)
		}
	})
	return d
}

// NeedFio skips the test, saying why, when fio is not usable here.
func NeedFio(t testing.TB) {
	t.Helper()
	if err := FioAvailable(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run the fio comparisons (scripts/setup-test-deps.sh installs fio): %v", err)
		}
		t.Skipf("%v", err)
	}
}

// NewCardDrive brings up an emulated flash card for a test and takes it down when the test
// ends. It skips the test, saying what is missing, where cards are unavailable (not root, no
// /dev/fuse, no loop driver); with CI set it fails instead.
func NewCardDrive(t testing.TB, s CardSpec, a CardAttach) *CardDrive {
	t.Helper()
	if err := CardAvailable(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI must run the emulated-card tests (as root, with /dev/fuse and loop devices): %v", err)
		}
		t.Skipf("%v", err)
	}
	d, err := UpCard(s, a)
	if err != nil {
		t.Fatalf("bring up card: %v", err)
	}
	t.Cleanup(func() {
		if err := d.Down(); err != nil {
			t.Errorf("take down card %s: %v", s.Name, err)
		}
	})
	return d
}
