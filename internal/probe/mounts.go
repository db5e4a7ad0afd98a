package probe

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// MountEntry is one line of /proc/self/mountinfo (see proc(5)).
type MountEntry struct {
	ID, ParentID int
	Major, Minor uint32
	Root         string // the mount's root within its filesystem (not "/" for bind mounts)
	MountPoint   string
	Options      []string // per-mount options: rw, noatime, sync, …
	FSType       string
	Source       string
	SuperOptions []string // per-superblock options: discard, errors=…
}

// ParseMountinfo reads mountinfo lines. Malformed lines are skipped so that one odd entry
// (a kernel we have not seen) does not hide the others; err reports a read failure only.
func ParseMountinfo(r io.Reader) ([]MountEntry, error) {
	var out []MountEntry
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		if m, ok := parseMountinfoLine(sc.Text()); ok {
			out = append(out, m)
		}
	}
	if err := sc.Err(); err != nil {
		return out, fmt.Errorf("read mountinfo: %w", err)
	}
	return out, nil
}

func parseMountinfoLine(line string) (MountEntry, bool) {
	f := strings.Fields(line)
	sep := slices.Index(f, "-")
	// Six fields before the optional ones, three after the separator.
	if sep < 6 || len(f) < sep+3 {
		return MountEntry{}, false
	}
	id, err1 := strconv.Atoi(f[0])
	parent, err2 := strconv.Atoi(f[1])
	majS, minS, ok := strings.Cut(f[2], ":")
	maj, err3 := strconv.ParseUint(majS, 10, 32)
	minor, err4 := strconv.ParseUint(minS, 10, 32)
	if err1 != nil || err2 != nil || !ok || err3 != nil || err4 != nil {
		return MountEntry{}, false
	}
	m := MountEntry{
		ID: id, ParentID: parent, Major: uint32(maj), Minor: uint32(minor),
		Root:       unescapeMount(f[3]),
		MountPoint: unescapeMount(f[4]),
		Options:    strings.Split(f[5], ","),
		FSType:     f[sep+1],
		Source:     unescapeMount(f[sep+2]),
	}
	if len(f) > sep+3 {
		m.SuperOptions = strings.Split(f[sep+3], ",")
	}
	return m, true
}

// unescapeMount undoes the kernel's octal escapes of space, tab, newline and backslash.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if v, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// HasOption reports whether the mount or its superblock carries opt (e.g. "sync").
func (m MountEntry) HasOption(opt string) bool {
	return slices.Contains(m.Options, opt) || slices.Contains(m.SuperOptions, opt)
}

// readMounts reads the mount table as the probing process sees it.
func readMounts(o Options) ([]MountEntry, error) {
	p := o.path("/proc/self/mountinfo")
	f, err := os.Open(p)
	if err != nil {
		// A fixture may only hold /proc/1/mountinfo; live systems always have self.
		f, err = os.Open(o.path("/proc/1/mountinfo"))
		if err != nil {
			return nil, fmt.Errorf("read the mount table %s: %w (is /proc mounted?)", p, err)
		}
	}
	defer f.Close()
	return ParseMountinfo(f)
}

// mountFor returns the entry whose mount point holds path: the longest mount point that is
// a prefix of path, the last one mounted winning when two share a mount point (over-mounts).
// When dev is non-nil only entries of that device qualify, which makes bind mounts and
// symlinked paths resolve to the filesystem the kernel actually uses.
func mountFor(mounts []MountEntry, path string, dev *[2]uint32) (MountEntry, bool) {
	path = filepath.Clean(path)
	best, bestLen, found := MountEntry{}, -1, false
	for _, m := range mounts {
		if dev != nil && (m.Major != dev[0] || m.Minor != dev[1]) {
			continue
		}
		mp := filepath.Clean(m.MountPoint)
		if !pathWithin(path, mp) {
			continue
		}
		if len(mp) >= bestLen {
			best, bestLen, found = m, len(mp), true
		}
	}
	return best, found
}

func pathWithin(path, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(path, "/")
	}
	return path == dir || strings.HasPrefix(path, dir+"/")
}
