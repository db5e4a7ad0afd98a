package qemu

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/testkit"
)

// tools the lab runs on the host, and the Debian package of each.
var tools = [][2]string{
	{"qemu-system-x86_64", "qemu-system-x86"}, {"qemu-system-aarch64", "qemu-system-arm"},
	{"apt-get", "apt"}, {"dpkg-deb", "dpkg"}, {"modprobe", "kmod"}, {"depmod", "kmod"},
	{"cpio", "cpio"}, {"fdtput", "device-tree-compiler"}, {"xz", "xz-utils"}, {"mkfs.ext4", "e2fsprogs"},
	{"go", "golang"},
}

// Available reports whether the lab can boot guests here: nil, or an error naming each
// missing tool and the package that has it (scripts/setup-test-deps.sh installs them).
func Available() error {
	var missing []string
	for _, t := range tools {
		if _, err := exec.LookPath(t[0]); err != nil {
			missing = append(missing, fmt.Sprintf("%s (apt-get install %s)", t[0], t[1]))
		}
	}
	if err := os.MkdirAll(CacheDir(), 0o755); err != nil || unix.Access(CacheDir(), unix.W_OK) != nil {
		missing = append(missing, fmt.Sprintf("a writable cache directory %s (run as root, or set IOMARK_QEMU_CACHE)", CacheDir()))
	}
	if len(missing) > 0 {
		return fmt.Errorf("qemu lab unavailable: missing %s", strings.Join(missing, ", "))
	}
	return nil
}

// Require ends the test, saying what is missing, when the lab cannot run here: a skip, or a
// failure in CI (testkit.Require).
func Require(t testing.TB) {
	t.Helper()
	if err := Available(); err != nil {
		testkit.Require(t, err.Error()+" (scripts/setup-test-deps.sh installs the QEMU lab)")
	}
	if testing.Short() {
		t.Skip("the QEMU lab boots kernels (tens of seconds each): skipped with -short")
	}
}

// BootT boots configuration name with steps for a test: it fails the test (with the
// console's tail) when the guest does not reach its end, and logs warnings.
func BootT(t testing.TB, name string, steps ...Step) *Result {
	t.Helper()
	Require(t)
	// Six minutes per attempt: a boot takes 15-40 s and the throttled quick run about 100 s,
	// but TCG on a machine shared with other work can be several times slower; a guest that
	// has not finished by then is booted again (Boot).
	r, err := Boot(context.Background(), name, steps, Options{Timeout: 6 * time.Minute})
	if err != nil {
		t.Fatalf("boot %s: %v", name, err)
	}
	t.Logf("%s: kernel %s (%s), %v, drives %v", name, r.Kernel, r.KernelPackage, r.Duration.Round(1e8), r.Disks)
	for _, w := range r.Warnings {
		t.Logf("%s: guest warning: %s", name, w)
	}
	return r
}
