package qemu

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Output is what one step printed and how it ended.
type Output struct {
	ID       string
	Stdout   string
	Stderr   string
	ExitCode int
}

// Result is one boot: the kernel, where each drive appeared, and the steps' outputs.
type Result struct {
	Config        string
	KernelPackage string
	Kernel        string            // uname -r in the guest
	Arch          string            // uname -m in the guest
	Disks         map[string]string // drive ID -> /dev/NAME ("" when it did not appear)
	Outputs       map[string]*Output
	Order         []string // step IDs in the order they ran
	Warnings      []string // modules that did not load, drives that did not appear
	Console       string
	Done          bool // the guest reached the end of its steps
	Duration      time.Duration
}

// parseConsole reads the "@@" lines of a guest's console (init.sh, functions.sh).
func parseConsole(console string) *Result {
	r := &Result{Disks: map[string]string{}, Outputs: map[string]*Output{}, Console: console}
	var cur *Output
	var out, errb strings.Builder
	for _, line := range strings.Split(console, "\n") {
		line = strings.TrimRight(line, "\r")
		i := strings.Index(line, "@@")
		if i < 0 {
			continue
		}
		line = line[i+2:]
		kind, rest, _ := strings.Cut(line, " ")
		switch kind {
		case "boot":
			f := strings.Fields(rest)
			if len(f) == 2 {
				r.Kernel, r.Arch = f[0], f[1]
			}
		case "warn":
			r.Warnings = append(r.Warnings, rest)
		case "disk":
			id, dev, _ := strings.Cut(rest, " ")
			r.Disks[id] = strings.TrimSpace(dev)
		case "begin":
			cur = &Output{ID: rest}
			out.Reset()
			errb.Reset()
		case "o":
			out.WriteString(rest + "\n")
		case "e":
			errb.WriteString(rest + "\n")
		case "end":
			if cur == nil {
				continue
			}
			id, code, _ := strings.Cut(rest, " ")
			if id == cur.ID {
				cur.ExitCode, _ = strconv.Atoi(strings.TrimSpace(code))
				cur.Stdout, cur.Stderr = out.String(), errb.String()
				r.Outputs[id] = cur
				r.Order = append(r.Order, id)
			}
			cur = nil
		case "done":
			r.Done = true
		}
	}
	return r
}

// Get returns a step's output, or an error naming the step and what the guest said.
func (r *Result) Get(id string) (*Output, error) {
	o, ok := r.Outputs[id]
	if !ok {
		return nil, fmt.Errorf("%s: step %q did not run (steps: %s)", r.Config, id, strings.Join(r.Order, ", "))
	}
	return o, nil
}

// JSON decodes a step's stdout into v; the step must have exited 0.
func (r *Result) JSON(id string, v any) error {
	o, err := r.Get(id)
	if err != nil {
		return err
	}
	if o.ExitCode != 0 {
		return fmt.Errorf("%s: step %s exited %d: %s", r.Config, id, o.ExitCode, o.Stderr)
	}
	if err := json.Unmarshal([]byte(o.Stdout), v); err != nil {
		return fmt.Errorf("%s: step %s: %v in %q", r.Config, id, err, o.Stdout)
	}
	return nil
}

// Disk is the guest's kernel name (sda, nvme0n1) of a configuration's drive.
func (r *Result) Disk(id string) (string, error) {
	d := strings.TrimPrefix(r.Disks[id], "/dev/")
	if d == "" {
		return "", fmt.Errorf("%s: drive %s did not appear in the guest (warnings: %v)", r.Config, id, r.Warnings)
	}
	return d, nil
}

// Info decodes `iomark info --json` of a drive (from Inventory) into v.
func (r *Result) Info(driveID string, v any) error {
	d, err := r.Disk(driveID)
	if err != nil {
		return err
	}
	return r.JSON("info:"+d, v)
}

// Tar decodes a CaptureStep output into dir.
func (r *Result) Tar(id, dir string) error {
	o, err := r.Get(id)
	if err != nil {
		return err
	}
	if o.ExitCode != 0 {
		return fmt.Errorf("%s: step %s exited %d: %s", r.Config, id, o.ExitCode, o.Stderr)
	}
	raw, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(o.Stdout), ""))
	if err != nil {
		return fmt.Errorf("%s: step %s: not base64: %v", r.Config, id, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.Clean(h.Name)
		if name == "." || strings.HasPrefix(name, "..") || filepath.IsAbs(name) {
			continue
		}
		p := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			os.MkdirAll(p, 0o755)
		case tar.TypeSymlink:
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.Remove(p)
			if err := os.Symlink(h.Linkname, p); err != nil {
				return err
			}
		case tar.TypeReg:
			os.MkdirAll(filepath.Dir(p), 0o755)
			b, err := io.ReadAll(io.LimitReader(tr, 1<<20))
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
		}
	}
}
