package benchkit

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Iomark is the iomark binary under test.
type Iomark struct {
	Path    string
	Version string // `iomark version`, on one line
	TmpDir  string // set when this package built the binary; Cleanup removes it
}

// Cleanup removes a binary this package built.
func (t *Iomark) Cleanup() {
	if t != nil && t.TmpDir != "" {
		os.RemoveAll(t.TmpDir)
	}
}

// Start refuses to run where the bench cannot, returning the first error of its needs in
// turn (the lab's devices, NeedTools, ...), and then prepares the binary under test as
// PrepareIomark does.
func Start(ctx context.Context, path, prefix string, logf func(string, ...any), needs ...func() error) (*Iomark, error) {
	for _, need := range needs {
		if err := need(); err != nil {
			return nil, err
		}
	}
	return PrepareIomark(ctx, path, prefix, logf)
}

// PrepareIomark takes the binary at path, or (path empty) builds ./cmd/iomark of this module
// into a temporary directory named with prefix, stamped as scripts/build.sh does so reports
// name the commit.
func PrepareIomark(ctx context.Context, path, prefix string, logf func(string, ...any)) (*Iomark, error) {
	t := &Iomark{Path: path}
	if path == "" {
		root, err := moduleRoot(ctx)
		if err != nil {
			return nil, err
		}
		if t.TmpDir, err = os.MkdirTemp("", prefix); err != nil {
			return nil, err
		}
		t.Path = filepath.Join(t.TmpDir, "iomark")
		logf("building %s/cmd/iomark", root)
		build := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags", versionFlags(ctx, root), "-o", t.Path, "./cmd/iomark")
		build.Dir, build.Env = root, append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			t.Cleanup()
			return nil, fmt.Errorf("build iomark: %w\n%s(pass -iomark PATH to use a built binary)", err, out)
		}
	} else if fi, err := os.Stat(path); err != nil || fi.IsDir() {
		return nil, fmt.Errorf("-iomark %s: no such binary (build one with: go build -o iomark ./cmd/iomark)", path)
	}
	if out, err := exec.CommandContext(ctx, t.Path, "version").Output(); err == nil {
		t.Version = strings.Join(strings.Fields(string(out)), " ")
	}
	return t, nil
}

// versionFlags stamps the build as scripts/build.sh does.
func versionFlags(ctx context.Context, root string) string {
	git := func(args ...string) string {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil {
			return "unknown"
		}
		return strings.TrimSpace(string(out))
	}
	const cli = "github.com/iomark/iomark/internal/cli"
	return fmt.Sprintf("-X %s.version=%s -X %s.commit=%s", cli, git("describe", "--tags", "--always", "--dirty"), cli, git("rev-parse", "HEAD"))
}

func moduleRoot(ctx context.Context) (string, error) {
	out, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	gomod := strings.TrimSpace(string(out))
	if err != nil || gomod == "" || gomod == os.DevNull {
		return "", errors.New("cannot find this module to build iomark: run from the iomark tree, or pass -iomark PATH")
	}
	return filepath.Dir(gomod), nil
}

// FirstLine is the first line of a command's output, trimmed.
func FirstLine(b []byte) string {
	s, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return s
}
