package benchkit

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// Main is a bench program's main: it parses the flags (declared before the call), refuses bad
// ones with check's error (exit status 2; check may be nil) and runs run under a context that
// SIGINT and SIGTERM cancel, so a stopped bench still takes its devices down; run's error is
// exit status 1. Every message is prefixed with the program's name.
func Main(name string, check func() error, run func(ctx context.Context) error) {
	flag.Parse()
	if check != nil {
		if err := check(); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
			os.Exit(2)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx)
	stop()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		os.Exit(1)
	}
}

// NoArgs refuses arguments after the flags, for a check that takes none.
func NoArgs() error {
	if flag.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", flag.Args())
	}
	return nil
}

// Logger prints progress lines on stderr, prefixed with the program's name (stdout is the
// report).
func Logger(name string) func(format string, a ...any) {
	return func(format string, a ...any) { fmt.Fprintf(os.Stderr, name+": "+format+"\n", a...) }
}

// NeedTools is a need for Start: each peer tool on PATH; install says how to get them.
func NeedTools(install string, tools ...string) func() error {
	return func() error {
		for _, tool := range tools {
			if _, err := exec.LookPath(tool); err != nil {
				return fmt.Errorf("%s not found: %s", tool, install)
			}
		}
		return nil
	}
}

// Header writes a report's heading: the date and the binary measured, then the machine, the
// peers' versions where given, and the load average at the start.
func (m Machine) Header(w io.Writer, version string, peers ...string) {
	fmt.Fprintf(w, "#### %s — %s\n\n", m.Date, version)
	fmt.Fprintf(w, "%s, %d cores, Linux %s; ", m.CPU, m.Cores, m.Kernel)
	for _, p := range peers {
		fmt.Fprintf(w, "%s; ", p)
	}
	fmt.Fprintf(w, "load average %s at the start.\n\n", LoadAvg())
}

// WriteJSON writes v, indented, to the file at path (the -raw output every bench offers).
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("write raw results: %w", err)
	}
	return nil
}

// Logf prints a progress line on stderr, prefixed with the time of day (stdout is the report).
func Logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}

// IomarkFlag declares -iomark, the binary under test (PrepareIomark builds one without it).
func IomarkFlag(path *string) {
	flag.StringVar(path, "iomark", "", "iomark binary to measure (default: build ./cmd/iomark)")
}
