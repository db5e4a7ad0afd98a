package qemu

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Options tune one boot.
type Options struct {
	// Timeout bounds the whole boot, steps included (default 5 minutes).
	Timeout time.Duration
	// WorkDir holds the drive images and the initramfs (default: a new temporary directory,
	// removed afterwards). Images are files the lab creates; no host disk is ever given to QEMU.
	WorkDir string
	// Console, when set, receives the guest's console as it comes.
	Console io.Writer
}

// QEMUBinary is the system emulator of an architecture.
func QEMUBinary(arch string) string {
	if arch == "arm64" {
		return "qemu-system-aarch64"
	}
	return "qemu-system-x86_64"
}

// Boot starts configuration name, runs steps in it and returns their outputs. The error says
// what failed (package download, build, QEMU, timeout); a Result is returned with whatever
// the guest printed even then.
func Boot(ctx context.Context, name string, steps []Step, o Options) (*Result, error) {
	c, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	work := o.WorkDir
	if work == "" {
		if work, err = os.MkdirTemp(imageDir(), "iomark-qemu-"+name+"-"); err != nil {
			return nil, err
		}
		defer os.RemoveAll(work)
	}
	k, err := GetKernel(ctx, c.Arch, c.Flavour)
	if err != nil {
		return nil, err
	}
	base, err := baseInitramfs(ctx, k, c.Modules, sharedWorkDir())
	if err != nil {
		return nil, err
	}
	initrd, err := stepsInitramfs(ctx, c, base, steps, work)
	if err != nil {
		return nil, err
	}
	var retried []string
	for attempt := 1; ; attempt++ {
		args, err := qemuArgs(ctx, c, k, initrd, work) // fresh drive images for each attempt
		if err != nil {
			return nil, err
		}
		r, stalled, err := runQEMU(ctx, c, args, o)
		r.Config, r.KernelPackage = name, k.Package
		missing := missingDrives(c, r)
		if (stalled || !r.Done || len(missing) > 0) && attempt < maxAttempts {
			why := "stalled before the guest was ready"
			switch {
			case !stalled && r.Done:
				why = "drives " + strings.Join(missing, ", ") + " did not appear"
			case !stalled:
				why = fmt.Sprintf("did not finish (%v)", err)
			}
			retried = append(retried, fmt.Sprintf("boot %d %s; its console tail:\n%s", attempt, why, tailLines(r.Console, 20)))
			continue
		}
		r.Warnings = append(r.Warnings, retried...)
		if err == nil && len(missing) > 0 {
			err = fmt.Errorf("%s: drives %s did not appear in %d boots (warnings: %v)", name, strings.Join(missing, ", "), attempt, r.Warnings)
		}
		return r, err
	}
}

// maxAttempts: QEMU's TCG guests fail now and then — a raspi3b's dwc2 missed its USB stick
// in about one boot of ten here, a guest hung at boot once and one ran out of time during its
// steps once — so a boot whose guest was not ready in time, did not see all its drives or did
// not finish is started again, up to this many times.
const maxAttempts = 3

// imageDir holds the boots' drive images and initramfs: tmpfs when there is one, so a guest's
// disk I/O does not wait on a host disk shared with other work (the throttled figures fell
// to a quarter of QEMU's limits once, with images in /tmp on a busy disk).
func imageDir() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() && unix.Access("/dev/shm", unix.W_OK) == nil {
		return "/dev/shm"
	}
	return os.TempDir()
}

// missingDrives lists the configuration's drives the guest did not find.
func missingDrives(c Config, r *Result) []string {
	var out []string
	for _, d := range c.Drives {
		if r.Disks[d.ID] == "" {
			out = append(out, d.ID)
		}
	}
	return out
}

// readyTimeout bounds the time from starting QEMU to the guest's "@@ready" (kernel up,
// modules loaded, drives found), 8-60 s as measured. TCG guests hang at boot now and then
// (a raspi3b once sat silent for minutes): such a boot is killed and started once more.
const readyTimeout = 3 * time.Minute

// exitGrace is how long QEMU may take to exit after the guest's last step: the guest reboots
// with -no-reboot, but a reset that does not happen (a watchdog that does not fire) must not
// turn a finished boot into a timeout.
const exitGrace = 20 * time.Second

// readyWriter keeps the console and signals when the guest says it is ready and done.
type readyWriter struct {
	mu             sync.Mutex
	buf            bytes.Buffer
	out            io.Writer
	ready, done    chan struct{}
	isReady, isEnd bool
}

func (w *readyWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if !w.isReady && bytes.Contains(w.buf.Bytes(), []byte("@@ready")) {
		w.isReady = true
		close(w.ready)
	}
	if w.isReady && !w.isEnd && bytes.Contains(w.buf.Bytes(), []byte("@@done")) {
		w.isEnd = true
		if w.done != nil {
			close(w.done)
		}
	}
	if w.out != nil {
		w.out.Write(p)
	}
	return len(p), nil
}

func (w *readyWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// runQEMU runs one boot; stalled says the guest never got ready within readyTimeout.
func runQEMU(ctx context.Context, c Config, args []string, o Options) (*Result, bool, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	w := &readyWriter{out: o.Console, ready: make(chan struct{}), done: make(chan struct{})}
	cmd := exec.CommandContext(ctx, QEMUBinary(c.Arch), args...)
	cmd.Stdout, cmd.Stderr = w, w
	cmd.WaitDelay = 5 * time.Second
	// QEMU dies with the test: a test binary killed by its timeout leaves no guest spinning.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return &Result{}, false, fmt.Errorf("%s: start %s: %v", c.Name, QEMUBinary(c.Arch), err)
	}
	exited := make(chan struct{})
	var stalled atomic.Bool
	go func() {
		select {
		case <-w.ready:
		case <-exited:
			return
		case <-time.After(min(readyTimeout, o.Timeout)):
			stalled.Store(true)
			cancel()
			return
		}
		select {
		case <-w.done:
		case <-exited:
			return
		}
		select {
		case <-exited:
		case <-time.After(exitGrace):
			cancel()
		}
	}()
	runErr := cmd.Wait()
	close(exited)
	r := parseConsole(w.String())
	r.Duration = time.Since(start)
	switch {
	case r.Done:
		return r, false, nil
	case stalled.Load():
		return r, true, fmt.Errorf("%s: the guest was not ready after %v (TCG hang or an overloaded machine); console tail:\n%s", c.Name, readyTimeout, tailLines(r.Console, 40))
	case ctx.Err() == context.DeadlineExceeded:
		return r, false, fmt.Errorf("%s: no end after %v (the guest hung or the machine is overloaded); console tail:\n%s", c.Name, o.Timeout, tailLines(r.Console, 40))
	case runErr != nil && !r.Done:
		return r, false, fmt.Errorf("%s: %s %v; console tail:\n%s", c.Name, QEMUBinary(c.Arch), runErr, tailLines(r.Console, 40))
	case !r.Done:
		return r, false, fmt.Errorf("%s: the guest stopped before its last step; console tail:\n%s", c.Name, tailLines(r.Console, 40))
	}
	return r, false, nil
}

// sharedWorkDir keeps what every boot of this process reuses (binaries, base archives).
var sharedWork string

func sharedWorkDir() string {
	buildMu.Lock()
	defer buildMu.Unlock()
	if sharedWork == "" {
		d, err := os.MkdirTemp("", "iomark-qemu-build-")
		if err != nil {
			d = os.TempDir()
		}
		sharedWork = d
	}
	return sharedWork
}

// Cleanup removes what the process built for its boots (call it from TestMain).
func Cleanup() {
	buildMu.Lock()
	defer buildMu.Unlock()
	if sharedWork != "" {
		os.RemoveAll(sharedWork)
		sharedWork = ""
		binaries = map[string]string{}
		bases = map[string]string{}
	}
}

// stepsInitramfs appends the boot's own files (steps, drive sizes) to the base archive.
func stepsInitramfs(ctx context.Context, c Config, base string, steps []Step, work string) (string, error) {
	stage := filepath.Join(work, "steps")
	os.MkdirAll(filepath.Join(stage, "lab"), 0o755)
	var disks, script strings.Builder
	for _, d := range c.Drives {
		fmt.Fprintf(&disks, "%s %d\n", d.ID, d.SizeMiB*2048)
	}
	for _, s := range steps {
		script.WriteString(s.line + "\n")
	}
	want := c.Disks
	if want == 0 {
		want = len(c.Drives)
	}
	for p, b := range map[string]string{"lab/disks": disks.String(), "lab/steps.sh": script.String(), "lab/want-disks": strconv.Itoa(want) + "\n"} {
		if err := os.WriteFile(filepath.Join(stage, p), []byte(b), 0o644); err != nil {
			return "", err
		}
	}
	own := filepath.Join(work, "steps.cpio")
	if err := writeCpio(ctx, stage, own); err != nil {
		return "", err
	}
	out := filepath.Join(work, "initrd.cpio")
	f, err := os.Create(out)
	if err != nil {
		return "", err
	}
	defer f.Close()
	for _, p := range []string{base, own} {
		in, err := os.Open(p)
		if err != nil {
			return "", err
		}
		_, err = io.Copy(f, in)
		in.Close()
		if err != nil {
			return "", err
		}
	}
	return out, nil
}

// qemuArgs makes the drive images and the command line of a configuration.
func qemuArgs(ctx context.Context, c Config, k *Kernel, initrd, work string) ([]string, error) {
	args := append([]string{}, c.Machine...)
	args = append(args, "-nodefaults", "-display", "none", "-monitor", "none", "-serial", "stdio", "-no-reboot",
		"-kernel", k.Image, "-initrd", initrd)
	cmdline := "console=" + c.Console + " rdinit=/init quiet loglevel=1 panic=-1"
	if c.Arch == "arm64" {
		cmdline += " maxcpus=1"
		dtb := filepath.Join(work, "machine.dtb")
		if err := copyFile(k.DTB(c.DTB), dtb); err != nil {
			return nil, fmt.Errorf("%s: device tree %s: %w", c.Name, c.DTB, err)
		}
		if c.Revision != 0 {
			if err := injectRevision(ctx, dtb, c.Revision); err != nil {
				return nil, err
			}
		}
		args = append(args, "-dtb", dtb)
	}
	args = append(args, "-append", cmdline)
	for _, d := range c.Drives {
		img := filepath.Join(work, d.ID+".img")
		if err := makeImage(ctx, img, d); err != nil {
			return nil, err
		}
		spec := "if=none,id=" + d.ID + ",format=raw,file=" + img
		if d.If == "sd" {
			spec = "if=sd,index=0,format=raw,file=" + img
		}
		if d.Throttle != "" {
			spec += "," + d.Throttle
		}
		args = append(args, "-drive", spec)
	}
	for _, dev := range c.Devices {
		args = append(args, "-device", dev)
	}
	return args, nil
}

// makeImage creates a drive's file (sparse) and its filesystem, if it has one.
func makeImage(ctx context.Context, img string, d Drive) error {
	f, err := os.Create(img)
	if err != nil {
		return err
	}
	err = f.Truncate(int64(d.SizeMiB) << 20)
	f.Close()
	if err != nil {
		return err
	}
	if d.FS == "ext4" {
		if out, err := exec.CommandContext(ctx, "mkfs.ext4", "-q", "-F", img).CombinedOutput(); err != nil {
			return fmt.Errorf("mkfs.ext4 %s: %v %s (apt-get install e2fsprogs)", img, err, out)
		}
	}
	return nil
}

// injectRevision writes /system/linux,revision as the Raspberry Pi firmware does.
func injectRevision(ctx context.Context, dtb string, rev uint32) error {
	exec.CommandContext(ctx, "fdtput", "-c", dtb, "/system").Run() // exists already on some DTBs
	out, err := exec.CommandContext(ctx, "fdtput", "-t", "x", dtb, "/system", "linux,revision", strconv.FormatUint(uint64(rev), 16)).CombinedOutput()
	if err != nil {
		return fmt.Errorf("fdtput linux,revision: %v %s (apt-get install device-tree-compiler)", err, out)
	}
	return nil
}

func tailLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
