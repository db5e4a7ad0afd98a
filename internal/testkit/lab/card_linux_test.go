package lab

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// alignedBuf returns n bytes aligned for O_DIRECT.
func alignedBuf(n int) []byte {
	b := make([]byte, n+4096)
	off := int(uintptr(unsafe.Pointer(&b[0])) & 4095)
	if off != 0 {
		off = 4096 - off
	}
	return b[off : off+n]
}

// TestCardDriveThroughKernel checks the whole path a verify takes: O_DIRECT I/O on the loop
// device reaches the card (no cache in between) and the card's failure shows through it.
func TestCardDriveThroughKernel(t *testing.T) {
	const real = 32 << 20
	d := NewCardDrive(t, CardSpec{Name: "wrap", ClaimedBytes: 256 << 20, RealBytes: real, Failure: FailWrap}, CardAttach{})
	f, err := os.OpenFile(d.Dev, os.O_RDWR|unix.O_DIRECT, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var size uint64
	if err := ioctlGetSize(f, &size); err != nil || size != 256<<20 {
		t.Fatalf("device size %d (%v), want the claimed 256 MiB", size, err)
	}
	p := alignedBuf(4096)
	copy(p, bytes.Repeat([]byte("iomark-card!"), 400))
	before := d.Card.Counters()
	if _, err := f.WriteAt(p, 3*real+(1<<20)); err != nil {
		t.Fatal(err)
	}
	got := alignedBuf(4096)
	if _, err := f.ReadAt(got, 1<<20); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, p) {
		t.Error("a write past the real size did not wrap onto the start through the kernel")
	}
	after := d.Card.Counters()
	if after.Writes-before.Writes != 1 || after.Reads-before.Reads != 1 {
		t.Errorf("card saw %d writes and %d reads, want 1 and 1: something cached or split the I/O",
			after.Writes-before.Writes, after.Reads-before.Reads)
	}
}

func ioctlGetSize(f *os.File, size *uint64) error {
	_, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), unix.BLKGETSIZE64, uintptr(unsafe.Pointer(size)))
	if errno != 0 {
		return errno
	}
	return nil
}

func TestCardDriveReadOnly(t *testing.T) {
	d := NewCardDrive(t, CardSpec{Name: "ro", ClaimedBytes: 16 << 20}, CardAttach{ReadOnly: true})
	ro, err := os.ReadFile(filepath.Join("/sys/block", filepath.Base(d.Dev), "ro"))
	if err != nil || strings.TrimSpace(string(ro)) != "1" {
		t.Errorf("%s ro = %q (%v), want 1", d.Dev, ro, err)
	}
	// Linux lets root open a read-only disk for writing (since 5.x the check is per write).
	f, err := os.OpenFile(d.Dev, os.O_WRONLY|unix.O_DIRECT, 0)
	if err != nil {
		return
	}
	defer f.Close()
	before := d.Card.Counters()
	if _, err := f.WriteAt(alignedBuf(4096), 0); err == nil {
		t.Error("a write to a read-only card succeeded")
	}
	if n := d.Card.Counters().Writes - before.Writes; n != 0 {
		t.Errorf("the card saw %d writes through a read-only loop device", n)
	}
}

const orphanCardEnv = "IOMARK_LAB_ORPHAN_CARD"

// TestSweepOrphanCards: a test process killed with a card up leaves a dead FUSE mount and a
// loop device on it; the next UpCard (through SweepOrphans) must take both down.
func TestSweepOrphanCards(t *testing.T) {
	if err := CardAvailable(); err != nil {
		t.Skip(err)
	}
	var d CardDrive
	runOrphan(t, orphanCardEnv, &d)
	t.Cleanup(func() { sweepCard(d.Mnt) }) // even if the sweep under test fails
	if !isMounted(t, d.Mnt) {
		t.Fatalf("orphan card %s not mounted: the test cannot check the sweep", d.Mnt)
	}
	if devs, _ := loopsBackedBy(d.File); len(devs) != 1 {
		t.Fatalf("orphan card attached to %v, want one loop device", devs)
	}
	if err := SweepOrphans(); err != nil {
		t.Fatalf("SweepOrphans: %v", err)
	}
	checkGone(t, "after the sweep", d.Mnt, d.File)
}

func TestParseCardMounts(t *testing.T) {
	mountinfo := `36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw
300 28 0:77 / /tmp/iomark-labgo-42-card-x-1 rw,nosuid,nodev,relatime - fuse.iomarkcard iomark-lab-x rw,user_id=0
301 28 0:78 / /tmp/other rw - fuse.sshfs host:/ rw
`
	if got := parseCardMounts(mountinfo); len(got) != 1 || got[0] != "/tmp/iomark-labgo-42-card-x-1" {
		t.Errorf("parseCardMounts = %q", got)
	}
}
