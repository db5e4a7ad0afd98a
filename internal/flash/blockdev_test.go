package flash

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeRoot builds a sysfs and procfs tree for one disk sdb (8:16) with a partition sdb1
// (8:17), in the layout of the kernel's Documentation/ABI/stable/sysfs-block and proc(5):
// /sys/dev/block/MAJ:MIN links to the device directory; a partition is a subdirectory of its
// disk holding a "partition" file; mountinfo's third field is the MAJ:MIN of the source.
func fakeRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	disk := filepath.Join(root, "sys/devices/platform/usb/host0/block/sdb")
	base := map[string]string{
		"size": "62333952", "ro": "0", "removable": "1", "dev": "8:16", "queue/logical_block_size": "512",
		"sdb1/partition": "1", "sdb1/dev": "8:17", "sdb1/size": "62325760",
		"device/preferred_erase_size": "4194304",
	}
	for k, v := range base {
		if _, ok := files[k]; !ok {
			files[k] = v
		}
	}
	for k, v := range files {
		p := filepath.Join(disk, k)
		if strings.HasPrefix(k, "/") {
			p = filepath.Join(root, k)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if v == "<dir>" {
			os.MkdirAll(p, 0o755)
			continue
		}
		if err := os.WriteFile(p, []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := filepath.Join(root, "sys/dev/block")
	os.MkdirAll(links, 0o755)
	os.Symlink("../../devices/platform/usb/host0/block/sdb", filepath.Join(links, "8:16"))
	os.Symlink("../../devices/platform/usb/host0/block/sdb/sdb1", filepath.Join(links, "8:17"))
	return root
}

func TestCheckDisk(t *testing.T) {
	mounted := "36 35 8:17 / /media/pi/CARD\\040ONE rw,relatime - vfat /dev/sdb1 rw\n"
	tests := []struct {
		name   string
		files  map[string]string
		majMin string
		inUse  string // substring; "" for free
		errStr string
		ro     bool
	}{
		{"free disk", map[string]string{"/proc/self/mountinfo": "1 2 8:2 / / rw - ext4 /dev/sda2 rw"}, "8:16", "", "", false},
		{"partition named", map[string]string{}, "8:17", "", "partition of /dev/sdb", false},
		{"partition mounted", map[string]string{"/proc/self/mountinfo": mounted}, "8:16", "mounted on /media/pi/CARD ONE", "", false},
		{"swap", map[string]string{"/proc/swaps": "Filename Type Size Used Priority\n/dev/sdb1 partition 1024 0 -2"}, "8:16", "swap", "", false},
		{"held by dm", map[string]string{"sdb1/holders/dm-0": "<dir>"}, "8:16", "held by dm-0", "", false},
		{"read-only", map[string]string{"ro": "1"}, "8:16", "", "", true},
		{"gone", map[string]string{}, "8:32", "", "not in sysfs", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := CheckDisk(fakeRoot(t, tt.files), tt.majMin)
			if tt.errStr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errStr) {
					t.Fatalf("err %v, want %q", err, tt.errStr)
				}
				var pe *ErrPartition
				if strings.Contains(tt.errStr, "partition") && (!errors.As(err, &pe) || pe.Disk != "sdb") {
					t.Errorf("error %v does not name the disk", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d.Name != "sdb" || d.SizeBytes != 62333952*512 || d.LogicalBlockBytes != 512 || !d.Removable || d.PreferredEraseBytes != 4<<20 {
				t.Errorf("disk %+v", d)
			}
			if d.ReadOnly != tt.ro {
				t.Errorf("read-only %v, want %v", d.ReadOnly, tt.ro)
			}
			if tt.inUse == "" && d.InUse != "" || tt.inUse != "" && !strings.Contains(d.InUse, tt.inUse) {
				t.Errorf("in use %q, want %q", d.InUse, tt.inUse)
			}
		})
	}
}
