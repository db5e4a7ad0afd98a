// Command qemu-lab boots the lab's QEMU machines by hand (docs/qemu-lab.md):
//
//	go run ./scripts/qemu-lab list
//	go run ./scripts/qemu-lab boot CONFIG [-console] [-sh 'SCRIPT']...
//	go run ./scripts/qemu-lab capture CONFIG [DIR]
//
// boot runs `iomark list --json` and `iomark info --json` of every drive, then each -sh
// script, and prints their outputs. capture writes the sysfs/procfs slice iomark reads in the
// guest as a fixture tree (default internal/probe/testdata/qemu-CONFIG) with its SOURCES.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/testkit/qemu"
)

type shFlags []string

func (s *shFlags) String() string     { return strings.Join(*s, "; ") }
func (s *shFlags) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "qemu-lab:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: qemu-lab list | boot CONFIG [-console] [-sh SCRIPT]... | capture CONFIG [DIR]")
	}
	defer qemu.Cleanup()
	switch args[0] {
	case "list":
		for _, c := range qemu.Configs {
			fmt.Printf("%-14s %-6s %-9s %s\n", c.Name, c.Arch, c.Flavour, c.Doc)
		}
		return nil
	case "boot":
		fs := flag.NewFlagSet("boot", flag.ContinueOnError)
		console := fs.Bool("console", false, "stream the guest's console to stderr")
		timeout := fs.Duration("timeout", 10*time.Minute, "bound on the whole boot")
		var shs shFlags
		fs.Var(&shs, "sh", "a shell script to run in the guest after the inventory (repeatable)")
		if len(args) < 2 {
			return fmt.Errorf("boot CONFIG: name a configuration (qemu-lab list)")
		}
		if err := fs.Parse(args[2:]); err != nil {
			return err
		}
		steps := qemu.Inventory()
		for i, s := range shs {
			steps = append(steps, qemu.Sh(fmt.Sprintf("sh%d", i+1), s))
		}
		o := qemu.Options{Timeout: *timeout}
		if *console {
			o.Console = os.Stderr
		}
		r, err := qemu.Boot(context.Background(), args[1], steps, o)
		if r != nil {
			printResult(r)
		}
		return err
	case "capture":
		if len(args) < 2 {
			return fmt.Errorf("capture CONFIG [DIR]")
		}
		dir := filepath.Join("internal", "probe", "testdata", "qemu-"+args[1])
		if len(args) > 2 {
			dir = args[2]
		}
		return capture(args[1], dir)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func printResult(r *qemu.Result) {
	fmt.Printf("# %s: kernel %s (%s), %s, %v\n", r.Config, r.Kernel, r.KernelPackage, r.Arch, r.Duration.Round(time.Second))
	for id, dev := range r.Disks {
		fmt.Printf("# drive %s = %s\n", id, dev)
	}
	for _, w := range r.Warnings {
		fmt.Printf("# warning: %s\n", w)
	}
	for _, id := range r.Order {
		o := r.Outputs[id]
		fmt.Printf("== %s (exit %d)\n%s", id, o.ExitCode, o.Stdout)
		if o.Stderr != "" {
			fmt.Printf("-- stderr\n%s", o.Stderr)
		}
	}
}

// capture boots config, captures its tree into dir (replacing what was there) and writes
// SOURCES.md saying where it comes from.
func capture(config, dir string) error {
	c, err := qemu.Lookup(config)
	if err != nil {
		return err
	}
	r, err := qemu.Boot(context.Background(), config, []qemu.Step{qemu.Cmd("uname", "uname", "-r"), qemu.CaptureStep()}, qemu.Options{Timeout: 10 * time.Minute})
	if err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := r.Tar("capture", dir); err != nil {
		return err
	}
	qv, _ := exec.Command(qemu.QEMUBinary(c.Arch), "--version").Output()
	var b strings.Builder
	fmt.Fprintf(&b, "# QEMU %s: %s\n\n", config, c.Doc)
	fmt.Fprintf(&b, "Captured from Debian %s (package %s) under %s, configuration `%s` of internal/testkit/qemu\n",
		r.Kernel, r.KernelPackage, strings.TrimSpace(strings.SplitN(string(qv), "\n", 2)[0]), config)
	fmt.Fprintf(&b, "(config.go), by `go run ./scripts/qemu-lab capture %s` on %s. Not hand-made: every file is what the guest\n", config, time.Now().UTC().Format("2006-01-02"))
	b.WriteString("kernel published, copied by labctl capture (internal/testkit/qemu/capture): the attributes of each block\n")
	b.WriteString("device and of every directory on its way up to /sys/devices, with the neighbours probe reads\n")
	b.WriteString("(libata link and device objects, root hubs, hwmon, of_node, mmc debugfs ios), and the board files.\n\n")
	b.WriteString("Drives (the guest found each by its size):\n\n")
	for _, d := range c.Drives {
		fmt.Fprintf(&b, "- `%s` (%d MiB) = %s\n", d.ID, d.SizeMiB, r.Disks[d.ID])
	}
	b.WriteString("\nQEMU devices:\n\n")
	for _, d := range c.Devices {
		fmt.Fprintf(&b, "- `-device %s`\n", d)
	}
	if c.Revision != 0 {
		fmt.Fprintf(&b, "\nThe device tree had `/system/linux,revision` = %#x written with fdtput before boot (QEMU adds none).\n", c.Revision)
	}
	b.WriteString("\nIdentity strings are QEMU's (hw/nvme, hw/ide, hw/usb, hw/sd) or the ones config.go sets; serial numbers\nare QEMU's or made up. Temperatures are QEMU's constants.\n")
	if err := os.WriteFile(filepath.Join(dir, "SOURCES.md"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	fmt.Printf("captured %s (%s) into %s\n", config, r.Kernel, dir)
	return nil
}
