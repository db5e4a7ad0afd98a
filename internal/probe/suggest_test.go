package probe

import (
	"os"
	"path/filepath"
	"testing"
)

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"SDCARD", "SDCARD", 0}, {"SDCRAD", "SDCARD", 1}, {"SDCAR", "SDCARD", 1}, {"SDCARDD", "SDCARD", 1},
		{"sdcard", "SDCARD", 6}, {"", "abc", 3}, {"usb", "ssd", 2}, {"médiа", "média", 1},
	} {
		if got := editDistance(c.a, c.b); got != c.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}

// TestNearPathsSuggestsOnlyExistingPathsClose: a typo in one name is matched to its
// existing neighbour (with the rest of the path, when that exists too); a name nothing
// resembles gets no suggestion, and the parent directory is never offered.
func TestNearPathsSuggestsOnlyExistingPathsClose(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"media/pi/SDCARD/photos", "media/pi/USB", "media/pi/BACKUP"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	o := Options{Root: t.TempDir()} // no mount table: only the directory's own names count
	for _, c := range []struct {
		path string
		want []string
	}{
		{"media/pi/SDCRAD", []string{"media/pi/SDCARD"}},
		{"media/pi/SDCRAD/photos", []string{"media/pi/SDCARD/photos"}},
		{"media/pi/SDCRAD/videos", nil}, // SDCARD has no videos: nothing that exists is close
		{"media/pi/UBS", []string{"media/pi/USB"}},
		{"media/pi/XYZQW", nil},
		{"medai/pi/SDCARD", []string{"media/pi/SDCARD"}},
	} {
		got := NearPaths(filepath.Join(dir, c.path), o)
		var paths []string
		for _, n := range got {
			paths = append(paths, n.Path)
		}
		var want []string
		for _, w := range c.want {
			want = append(want, filepath.Join(dir, w))
		}
		if len(paths) != len(want) || (len(want) > 0 && paths[0] != want[0]) {
			t.Errorf("NearPaths(%s) = %v, want %v", c.path, paths, want)
		}
	}
}
