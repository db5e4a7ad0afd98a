package qemu

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// DefaultCache holds downloaded packages and unpacked kernels between runs.
const DefaultCache = "/var/cache/iomark-qemu"

// CacheDir is $IOMARK_QEMU_CACHE, else DefaultCache.
func CacheDir() string {
	if d := os.Getenv("IOMARK_QEMU_CACHE"); d != "" {
		return d
	}
	return DefaultCache
}

// Flavour chooses a kernel series.
type Flavour string

const (
	// Stable is bookworm's kernel (6.1, with security updates).
	Stable Flavour = "stable"
	// Backports is bookworm-backports' kernel (6.12 when this was written): bos_descriptors in
	// sysfs needs 6.9 or later.
	Backports Flavour = "backports"
)

// sources are the Debian suites the lab downloads from; its own apt state keeps the host's
// untouched (no foreign architecture, no backports added to the system).
const sources = `deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-backports main
deb http://deb.debian.org/debian-security bookworm-security main
`

// apt runs apt-get or apt-cache with the lab's own lists and both architectures.
type apt struct {
	dir string
	mu  sync.Mutex
	up  bool
}

func (a *apt) opts() []string {
	return []string{
		"-o", "Dir::Etc::sourcelist=" + filepath.Join(a.dir, "sources.list"),
		"-o", "Dir::Etc::sourceparts=-",
		"-o", "Dir::State::Lists=" + filepath.Join(a.dir, "lists"),
		"-o", "Dir::State::status=" + filepath.Join(a.dir, "status"),
		"-o", "Dir::Cache=" + filepath.Join(a.dir, "cache"),
		"-o", "APT::Architectures::=amd64", "-o", "APT::Architectures::=arm64",
		"-q",
	}
}

// update fetches the package lists once per process (a few seconds).
func (a *apt) update(ctx context.Context) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.up {
		return nil
	}
	for _, d := range []string{"lists/partial", "cache/archives/partial"} {
		if err := os.MkdirAll(filepath.Join(a.dir, d), 0o755); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(a.dir, "sources.list"), []byte(sources), 0o644); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(a.dir, "status")); err != nil {
		os.WriteFile(filepath.Join(a.dir, "status"), nil, 0o644)
	}
	if a.fresh() {
		a.up = true
		return nil
	}
	out, err := exec.CommandContext(ctx, "apt-get", append(a.opts(), "update")...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("apt-get update for the lab's package lists: %v\n%s", err, tail(out))
	}
	a.up = true
	return nil
}

// fresh reports whether the lab's package lists were fetched less than a day ago (security
// updates replace kernel packages every few weeks; a day old list still downloads).
func (a *apt) fresh() bool {
	ms, _ := filepath.Glob(filepath.Join(a.dir, "lists", "*_Packages*"))
	if len(ms) < 3 {
		return false
	}
	for _, m := range ms {
		fi, err := os.Stat(m)
		if err != nil || time.Since(fi.ModTime()) > 24*time.Hour {
			return false
		}
	}
	return true
}

// record is one package stanza of apt-cache show.
type record map[string]string

func (a *apt) show(ctx context.Context, pkg string) ([]record, error) {
	out, err := exec.CommandContext(ctx, "apt-cache", append(a.opts(), "show", pkg)...).Output()
	if err != nil {
		return nil, fmt.Errorf("apt-cache show %s: %v", pkg, err)
	}
	var recs []record
	cur := record{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			if len(cur) > 0 {
				recs = append(recs, cur)
			}
			cur = record{}
			continue
		}
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, " ") {
			cur[k] = v
		}
	}
	if len(cur) > 0 {
		recs = append(recs, cur)
	}
	return recs, nil
}

// download fetches pkg (NAME or NAME:ARCH) into dir unless a .deb of it is there already;
// it returns the .deb's path.
func (a *apt) download(ctx context.Context, dir, pkg, version string) (string, error) {
	name, arch, _ := strings.Cut(pkg, ":")
	if arch == "" {
		arch = "amd64"
	}
	pattern := fmt.Sprintf("%s_%s_%s.deb", name, strings.ReplaceAll(version, ":", "%3a"), arch)
	if version == "" {
		pattern = name + "_*_" + arch + ".deb"
	}
	if ms, _ := filepath.Glob(filepath.Join(dir, pattern)); len(ms) > 0 {
		sort.Strings(ms)
		return ms[len(ms)-1], nil
	}
	if err := a.update(ctx); err != nil {
		return "", err
	}
	spec := pkg
	if version != "" {
		spec += "=" + version
	}
	cmd := exec.CommandContext(ctx, "apt-get", append(a.opts(), "download", spec)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("apt-get download %s: %v\n%s", spec, err, tail(out))
	}
	ms, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(ms) == 0 {
		return "", fmt.Errorf("apt-get download %s left no %s in %s", spec, pattern, dir)
	}
	sort.Strings(ms)
	return ms[len(ms)-1], nil
}

// newestImage finds the versioned kernel image package that linux-image-ARCH points at in the
// flavour's suite: the Depends of the highest metapackage version with (backports) or without
// (stable) "~bpo".
func (a *apt) newestImage(ctx context.Context, arch string, f Flavour) (string, error) {
	if err := a.update(ctx); err != nil {
		return "", err
	}
	meta := "linux-image-" + arch
	if arch != "amd64" {
		meta += ":" + arch
	}
	recs, err := a.show(ctx, meta)
	if err != nil {
		return "", err
	}
	var best record
	for _, r := range recs {
		if strings.Contains(r["Version"], "bpo") != (f == Backports) {
			continue
		}
		if best == nil || versionLess(best["Version"], r["Version"]) {
			best = r
		}
	}
	if best == nil {
		return "", fmt.Errorf("no %s kernel for %s in the lab's package lists", f, arch)
	}
	dep := strings.TrimSpace(strings.Split(strings.Split(best["Depends"], ",")[0], " ")[0])
	if !strings.HasPrefix(dep, "linux-image-") {
		return "", fmt.Errorf("%s %s depends on %q, not a kernel image", meta, best["Version"], best["Depends"])
	}
	return dep, nil
}

// versionLess compares Debian versions with dpkg's own rules.
func versionLess(a, b string) bool {
	return exec.Command("dpkg", "--compare-versions", a, "lt", b).Run() == nil
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}
