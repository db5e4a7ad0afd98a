package qemu

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Kernel is an unpacked Debian kernel package.
type Kernel struct {
	Arch    string // amd64 or arm64
	Flavour Flavour
	Package string // linux-image-6.1.0-56-amd64
	Version string // the release uname -r prints: 6.1.0-56-amd64
	Root    string // where the package is unpacked
	Image   string // boot/vmlinuz-VERSION
}

// ModulesDir is lib/modules/VERSION under the unpacked package.
func (k *Kernel) ModulesDir() string { return filepath.Join(k.Root, "lib/modules", k.Version) }

// DTB is a device tree blob shipped with the kernel (arm64), e.g. broadcom/bcm2837-rpi-3-b.dtb.
func (k *Kernel) DTB(name string) string {
	return filepath.Join(k.Root, "usr/lib/linux-image-"+k.Version, name)
}

var (
	aptOnce sync.Once
	labApt  *apt
)

func theApt() *apt {
	aptOnce.Do(func() { labApt = &apt{dir: filepath.Join(CacheDir(), "apt")} })
	return labApt
}

// lockCache serialises fetching and unpacking between processes sharing the cache.
func lockCache() (func(), error) {
	if err := os.MkdirAll(CacheDir(), 0o755); err != nil {
		return nil, fmt.Errorf("create the lab cache %s: %w (set IOMARK_QEMU_CACHE to a writable directory)", CacheDir(), err)
	}
	f, err := os.OpenFile(filepath.Join(CacheDir(), "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
}

var (
	kernelsMu sync.Mutex
	kernels   = map[string]*Kernel{}
)

// GetKernel returns the newest kernel of a flavour for arch, downloading and unpacking it on
// first use. Without network it falls back to the newest one already unpacked in the cache.
func GetKernel(ctx context.Context, arch string, f Flavour) (*Kernel, error) {
	key := arch + "/" + string(f)
	kernelsMu.Lock()
	defer kernelsMu.Unlock()
	if k := kernels[key]; k != nil {
		return k, nil
	}
	unlock, err := lockCache()
	if err != nil {
		return nil, err
	}
	defer unlock()
	a := theApt()
	debs := filepath.Join(CacheDir(), "debs")
	os.MkdirAll(debs, 0o755)
	pkg, err := a.newestImage(ctx, arch, f)
	var deb string
	if err == nil {
		spec := pkg
		if arch != "amd64" {
			spec += ":" + arch
		}
		deb, err = a.download(ctx, debs, spec, "")
	}
	if err != nil {
		// Offline: the newest package of this flavour already in the cache.
		ms, _ := filepath.Glob(filepath.Join(debs, "linux-image-*_"+arch+".deb"))
		var mine []string
		for _, m := range ms {
			if strings.Contains(filepath.Base(m), "bpo") == (f == Backports) {
				mine = append(mine, m)
			}
		}
		if len(mine) == 0 {
			return nil, err
		}
		sort.Strings(mine)
		deb = mine[len(mine)-1]
		pkg = strings.SplitN(filepath.Base(deb), "_", 2)[0]
	}
	k := &Kernel{Arch: arch, Flavour: f, Package: pkg, Version: strings.TrimPrefix(pkg, "linux-image-")}
	k.Root = filepath.Join(CacheDir(), "kernels", strings.TrimSuffix(filepath.Base(deb), ".deb"))
	if err := unpack(ctx, deb, k.Root); err != nil {
		return nil, err
	}
	k.Image = filepath.Join(k.Root, "boot", "vmlinuz-"+k.Version)
	if _, err := os.Stat(k.Image); err != nil {
		return nil, fmt.Errorf("%s has no %s", deb, k.Image)
	}
	if err := prepareModules(ctx, k); err != nil {
		return nil, err
	}
	kernels[key] = k
	return k, nil
}

// unpack extracts a .deb once (a marker file says it finished).
func unpack(ctx context.Context, deb, dir string) error {
	done := filepath.Join(dir, ".unpacked")
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if out, err := exec.CommandContext(ctx, "dpkg-deb", "-x", deb, dir).CombinedOutput(); err != nil {
		return fmt.Errorf("dpkg-deb -x %s: %v\n%s", deb, err, tail(out))
	}
	return os.WriteFile(done, nil, 0o644)
}

// prepareModules runs depmod over the unpacked tree, once (the package's postinst would).
// Compressed modules (.ko.xz, from 6.12 on) stay compressed: only those a guest loads are
// decompressed, when its initramfs is built.
func prepareModules(ctx context.Context, k *Kernel) error {
	done := filepath.Join(k.Root, ".modules-ready")
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	if out, err := exec.CommandContext(ctx, "depmod", "-b", k.Root, k.Version).CombinedOutput(); err != nil {
		return fmt.Errorf("depmod -b %s %s: %v\n%s (apt-get install kmod)", k.Root, k.Version, err, tail(out))
	}
	return os.WriteFile(done, nil, 0o644)
}

// moduleOrder lists the module files (relative to ModulesDir) to insmod for names, each after
// what it depends on, as modprobe --show-depends orders them. Built-in modules are skipped.
func moduleOrder(ctx context.Context, k *Kernel, names []string) ([]string, error) {
	args := append([]string{"-d", k.Root, "-S", k.Version, "-a", "--show-depends"}, names...)
	out, err := exec.CommandContext(ctx, "modprobe", args...).CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("modprobe --show-depends for %s: %v\n%s", k.Package, err, tail(out))
	}
	seen := map[string]bool{}
	var order []string
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "insmod" {
			continue
		}
		rel, err := filepath.Rel(k.ModulesDir(), filepath.Clean(f[1]))
		if err != nil || strings.HasPrefix(rel, "..") || seen[rel] {
			continue
		}
		seen[rel] = true
		order = append(order, rel)
	}
	return order, nil
}
