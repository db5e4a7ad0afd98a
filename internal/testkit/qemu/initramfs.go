package qemu

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

//go:embed init.sh
var initScript []byte

//go:embed functions.sh
var functionsScript []byte

var (
	buildMu  sync.Mutex
	binaries = map[string]string{} // arch -> directory with iomark and labctl
	bases    = map[string]string{} // kernel+modules -> base initramfs
)

// moduleRoot is the repository's root (go.mod's directory).
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" || strings.TrimSpace(string(out)) == os.DevNull {
		return "", fmt.Errorf("testkit/qemu: cannot find the iomark module (run from inside the repository): %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out))), nil
}

// buildBinaries builds static iomark and labctl for arch once per process, from the working
// tree as it is (so the guest runs the code under test).
func buildBinaries(ctx context.Context, arch, workDir string) (string, error) {
	buildMu.Lock()
	defer buildMu.Unlock()
	if d := binaries[arch]; d != "" {
		return d, nil
	}
	root, err := moduleRoot()
	if err != nil {
		return "", err
	}
	dir := filepath.Join(workDir, "bin-"+arch)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	for _, b := range []struct{ name, pkg string }{{"iomark", "./cmd/iomark"}, {"labctl", "./internal/testkit/qemu/labctl"}} {
		cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", "-s -w", "-o", filepath.Join(dir, b.name), b.pkg)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", fmt.Errorf("build %s for %s: %v\n%s", b.name, arch, err, tail(out))
		}
	}
	binaries[arch] = dir
	return dir, nil
}

// busybox returns the static busybox of arch from Debian's busybox-static, unpacked in the cache.
func busybox(ctx context.Context, arch string) (string, error) {
	unlock, err := lockCache()
	if err != nil {
		return "", err
	}
	defer unlock()
	debs := filepath.Join(CacheDir(), "debs")
	os.MkdirAll(debs, 0o755)
	deb, err := theApt().download(ctx, debs, "busybox-static:"+arch, "")
	if err != nil {
		return "", err
	}
	dir := filepath.Join(CacheDir(), "busybox", strings.TrimSuffix(filepath.Base(deb), ".deb"))
	if err := unpack(ctx, deb, dir); err != nil {
		return "", err
	}
	return filepath.Join(dir, "bin", "busybox"), nil
}

// baseInitramfs is the part shared by every boot of a kernel: busybox, init, modules and the
// binaries. Boot appends a small archive with the steps (the kernel unpacks concatenated
// cpio archives in order).
func baseInitramfs(ctx context.Context, k *Kernel, modules []string, workDir string) (string, error) {
	bb, err := busybox(ctx, k.Arch)
	if err != nil {
		return "", err
	}
	bins, err := buildBinaries(ctx, k.Arch, workDir)
	if err != nil {
		return "", err
	}
	key := k.Package + ":" + k.Arch + ":" + strings.Join(modules, ",")
	buildMu.Lock()
	defer buildMu.Unlock()
	if p := bases[key]; p != "" {
		return p, nil
	}
	order, err := moduleOrder(ctx, k, modules)
	if err != nil {
		return "", err
	}
	stage, err := os.MkdirTemp(workDir, "initramfs-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	for _, d := range []string{"bin", "sbin", "proc", "sys", "dev", "tmp", "mnt", "lab", "lib/modules/" + k.Version} {
		os.MkdirAll(filepath.Join(stage, d), 0o755)
	}
	files := map[string]string{
		"bin/busybox": bb, "bin/iomark": filepath.Join(bins, "iomark"), "bin/labctl": filepath.Join(bins, "labctl"),
	}
	for dst, src := range files {
		if err := copyFile(src, filepath.Join(stage, dst)); err != nil {
			return "", err
		}
	}
	// busybox's insmod takes plain modules: decompress the ones this guest loads.
	var plain []string
	for _, m := range order {
		src := filepath.Join(k.ModulesDir(), m)
		m = strings.TrimSuffix(m, ".xz")
		dst := filepath.Join(stage, "lib/modules", k.Version, m)
		var err error
		if strings.HasSuffix(src, ".xz") {
			err = xzDecompress(ctx, src, dst)
		} else {
			err = copyFile(src, dst)
		}
		if err != nil {
			return "", err
		}
		plain = append(plain, m)
	}
	writes := map[string][]byte{
		"init": initScript, "lab/functions.sh": functionsScript,
		"lab/modules": []byte(strings.Join(plain, "\n") + "\n"),
	}
	for p, b := range writes {
		if err := os.WriteFile(filepath.Join(stage, p), b, 0o755); err != nil {
			return "", err
		}
	}
	out := filepath.Join(workDir, fmt.Sprintf("base-%s-%d.cpio", k.Package, len(bases)))
	if err := writeCpio(ctx, stage, out); err != nil {
		return "", err
	}
	bases[key] = out
	return out, nil
}

// writeCpio archives dir in the newc format the kernel unpacks, owned by root.
func writeCpio(ctx context.Context, dir, out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	var names bytes.Buffer
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && p != dir {
			rel, _ := filepath.Rel(dir, p)
			names.WriteString(rel + "\n")
		}
		return nil
	})
	cmd := exec.CommandContext(ctx, "cpio", "-o", "-H", "newc", "--owner=0:0", "--quiet")
	cmd.Dir, cmd.Stdin, cmd.Stdout = dir, &names, f
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("cpio: %v %s (apt-get install cpio)", err, stderr.String())
	}
	return nil
}

func xzDecompress(ctx context.Context, src, dst string) error {
	os.MkdirAll(filepath.Dir(dst), 0o755)
	out, err := exec.CommandContext(ctx, "xz", "-dc", src).Output()
	if err != nil {
		return fmt.Errorf("xz -dc %s: %v (apt-get install xz-utils)", src, err)
	}
	return os.WriteFile(dst, out, 0o644)
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	os.MkdirAll(filepath.Dir(dst), 0o755)
	return os.WriteFile(dst, b, 0o755)
}
