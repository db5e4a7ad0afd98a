package probe

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLiveCurrentDirectory probes the machine the tests run on: it must not fail or hang, and
// when / sits on a block device that device must be found.
func TestLiveCurrentDirectory(t *testing.T) {
	start := time.Now()
	r, err := Probe(".", Options{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatalf("Probe(.): %v", err)
	}
	if r.Mount == nil {
		t.Fatalf("no mount for the current directory: %+v", r)
	}
	if m := r.Mount; strings.HasPrefix(m.Source, "/dev/") && exists(filepath.Join("/sys/class/block", filepath.Base(m.Source))) && r.Device == nil {
		t.Errorf("mounted from %s but no device identified", m.Source)
	}
	if r.Board == nil || r.Board.Kernel == "" {
		t.Errorf("board = %+v", r.Board)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("probe took %v", d) // a guard against hangs, not a speed assertion
	}
	if _, err := List(Options{}); err != nil {
		t.Errorf("List: %v", err)
	}
}

// TestLiveLoopDevice builds an ext4 loop device from a file it creates, mounts it and checks
// the tree: mount, loop device, backing file, and the disk that holds the file.
func TestLiveLoopDevice(t *testing.T) {
	needRootAndTools(t, "losetup", "mkfs.ext4", "mount", "umount")
	dir := t.TempDir()
	img := filepath.Join(dir, "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 32<<20); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "--find", "--show", img).CombinedOutput()
	if err != nil {
		t.Skipf("losetup failed (no loop devices in this container?): %v %s", err, out)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
	if out, err := exec.Command("mkfs.ext4", "-q", "-F", dev).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.ext4 %s: %v %s", dev, err, out)
	}
	mnt := filepath.Join(dir, "mnt")
	os.Mkdir(mnt, 0o755)
	if out, err := exec.Command("mount", dev, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount failed: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })

	// ATA pass-through to a loop device is refused at once (no SG_IO): an error, never a hang.
	if id, err := ataIdentify(Options{Timeout: 5 * time.Second}, dev); err == nil {
		t.Errorf("ATA IDENTIFY on %s answered %+v", dev, id)
	}

	for _, target := range []string{mnt, dev} {
		r, err := Probe(target, Options{})
		if err != nil {
			t.Fatalf("Probe(%s): %v", target, err)
		}
		if r.Device == nil || r.Device.Class != ClassLoop || r.Device.Path != dev || r.Device.CapacityBytes != 32<<20 {
			t.Errorf("%s: device = %+v", target, r.Device)
		}
		if r.Mount == nil || r.Mount.FSType != "ext4" || r.Mount.MountPoint != mnt {
			t.Errorf("%s: mount = %+v", target, r.Mount)
		}
		if r.Loop == nil || r.Loop.BackingFile != img || r.Loop.BackingDevice == "" {
			t.Errorf("%s: loop = %+v", target, r.Loop)
		}
		if r.Partition != nil || r.USB != nil || r.SD != nil || r.NVMe != nil || r.CeilingMBPerS != 0 {
			t.Errorf("%s: a loop device must not invent hardware: %+v", target, r)
		}
	}
}

// TestLiveMisalignedFATPartition writes an MBR with one FAT32 partition at sector 63 into a file
// it creates, attaches it with partition scanning, mounts the partition with -o sync and checks
// what a DOS-era flash drive looks like: partition start, misalignment, vfat, sync.
func TestLiveMisalignedFATPartition(t *testing.T) {
	needRootAndTools(t, "losetup", "mkfs.vfat", "mount", "umount")
	const sectors = 65536 // 32 MiB
	img := filepath.Join(t.TempDir(), "stick.img")
	mbr := make([]byte, 512)
	e := mbr[446:462]
	e[4] = 0x0c // FAT32 (LBA)
	putLE32(e[8:], 63)
	putLE32(e[12:], sectors-63)
	mbr[510], mbr[511] = 0x55, 0xaa
	if err := os.WriteFile(img, mbr, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, sectors*512); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "--find", "--show", "--partscan", img).CombinedOutput()
	if err != nil {
		t.Skipf("losetup failed: %v %s", err, out)
	}
	dev := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command("losetup", "-d", dev).Run() })
	part := dev + "p1"
	for i := 0; i < 50 && !exists(part); i++ { // no udev: the kernel creates the node itself
		time.Sleep(20 * time.Millisecond)
	}
	if !exists(part) {
		t.Skipf("%s did not appear (devtmpfs without partition nodes?)", part)
	}
	if out, err := exec.Command("mkfs.vfat", part).CombinedOutput(); err != nil {
		t.Fatalf("mkfs.vfat %s: %v %s", part, err, out)
	}
	mnt := filepath.Join(t.TempDir(), "mnt")
	os.Mkdir(mnt, 0o755)
	if out, err := exec.Command("mount", "-o", "sync", part, mnt).CombinedOutput(); err != nil {
		t.Skipf("mount failed: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })

	r, err := Probe(mnt, Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Partition
	if p == nil || p.StartBytes != 63*512 || p.Aligned1MiB || p.Number != 1 || p.SizeBytes != (sectors-63)*512 {
		t.Errorf("partition = %+v", p)
	}
	if r.Mount == nil || r.Mount.FSType != "vfat" || !r.Mount.Sync {
		t.Errorf("mount = %+v", r.Mount)
	}
	if r.Device == nil || r.Device.Path != dev || r.Device.Class != ClassLoop {
		t.Errorf("device = %+v", r.Device)
	}
}

// needRootAndTools skips the test unless it runs as root with every one of tools installed:
// attaching and mounting a loop device needs both.
func needRootAndTools(t *testing.T, tools ...string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to attach and mount a loop device (run the tests as root to exercise it)")
	}
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
}

func putLE32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}
