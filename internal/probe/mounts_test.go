package probe

import (
	"strings"
	"testing"
)

func TestParseMountinfo(t *testing.T) {
	in := strings.Join([]string{
		`36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue`, // proc(5) example
		`27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard`,                          // no optional fields
		`40 27 8:1 / /media/my\040stick rw,nosuid shared:5 shared:6 - vfat /dev/sda1 rw,sync`,
		`garbage line`,
		`41 27 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2`, // no super options
		`42 x 0:38 / /bad rw - tmpfs tmpfs rw`,
	}, "\n")
	got, err := ParseMountinfo(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 4 {
		t.Fatalf("got %d entries, want 4: %+v", len(got), got)
	}
	m := got[0]
	if m.ID != 36 || m.ParentID != 35 || m.Major != 98 || m.Minor != 0 || m.Root != "/mnt1" || m.MountPoint != "/mnt2" ||
		m.FSType != "ext3" || m.Source != "/dev/root" || !m.HasOption("noatime") || !m.HasOption("errors=continue") {
		t.Errorf("entry 0 = %+v", m)
	}
	if !got[1].HasOption("discard") || got[1].HasOption("sync") {
		t.Errorf("entry 1 options = %v %v", got[1].Options, got[1].SuperOptions)
	}
	if got[2].MountPoint != "/media/my stick" || !got[2].HasOption("sync") {
		t.Errorf("entry 2 = %+v (octal escape and super option sync)", got[2])
	}
	if got[3].FSType != "cgroup2" || got[3].SuperOptions != nil {
		t.Errorf("entry 3 = %+v", got[3])
	}
}

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`a\040b`:   "a b",
		`tab\011x`: "tab\tx",
		`back\134`: `back\`,
		`trail\04`: `trail\04`, // too short to be an escape
		`bad\09x`:  `bad\09x`,
		`plain`:    "plain",
	} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMountFor(t *testing.T) {
	mounts := []MountEntry{
		{MountPoint: "/", Major: 8, Minor: 2},
		{MountPoint: "/boot/firmware", Major: 8, Minor: 1},
		{MountPoint: "/media/usb", Major: 8, Minor: 17},
		{MountPoint: "/media/usb", Major: 8, Minor: 33}, // mounted over the previous one
	}
	for path, want := range map[string]uint32{
		"/":                  2,
		"/home/pi":           2,
		"/boot/firmware/x":   1,
		"/boot/firmwarex":    2, // a prefix of the name is not a parent directory
		"/media/usb/a/b":     33,
		"/media/usb":         33,
		"/media/usb/../../x": 2,
	} {
		m, ok := mountFor(mounts, path, nil)
		if !ok || m.Minor != want {
			t.Errorf("mountFor(%s) = %d, %v; want minor %d", path, m.Minor, ok, want)
		}
	}
	// With a device number, only that device's mounts count (bind mounts, symlinks).
	m, ok := mountFor(mounts, "/media/usb/a", &[2]uint32{8, 17})
	if !ok || m.Minor != 17 {
		t.Errorf("mountFor with device = %+v %v", m, ok)
	}
	if _, ok := mountFor(mounts, "/x", &[2]uint32{9, 9}); ok {
		t.Error("mountFor matched a device that is not mounted")
	}
}

// FuzzParseMountinfo: no input may panic, and every entry returned has its mandatory fields.
func FuzzParseMountinfo(f *testing.F) {
	f.Add(`36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue`)
	f.Add("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n28 27 0:25 / /x ro - tmpfs t ro")
	f.Add(`1 2 3:4 \040 \ - - - -`)
	f.Add("- - - - - - - -")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseMountinfo(strings.NewReader(s))
		if err != nil {
			return // only a scanner error (an over-long line)
		}
		for _, m := range got {
			if m.FSType == "" || m.Source == "" || len(m.Options) == 0 {
				t.Fatalf("entry with empty mandatory field from %q: %+v", s, m)
			}
			_ = m.HasOption("sync")
		}
	})
}
