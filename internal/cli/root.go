package cli

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

// Exit statuses shared by every subcommand.
const (
	exitOK          = 0
	exitFailure     = 1
	exitUsage       = 2
	exitInterrupted = 130 // as a shell reports a process ended by SIGINT
)

// exitError carries a chosen exit status through cobra's error return.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// withExit marks err so that Main exits with code.
func withExit(code int, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: code, err: err}
}

// usageError is a bad flag or argument: exit status 2.
func usageError(format string, args ...any) error {
	return withExit(exitUsage, fmt.Errorf(format, args...))
}

// newRoot builds the command tree. Each subcommand adds itself in its own file.
func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "iomark",
		Short: "Honest storage benchmarks for the Raspberry Pi, other SBCs and any Linux machine",
		Long: `iomark tells you what your drive is, what stands between it and the CPU,
how fast it really is, and why. It never writes to a raw device unless you name it
and confirm, and a test file never outlives the run.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	for _, add := range subcommands {
		root.AddCommand(add())
	}
	withVersionFlag(root)
	return root
}

// subcommands is filled by each subcommand file's init, so adding a command touches one file.
var subcommands []func() *cobra.Command

// Main runs iomark with args and returns the process exit status.
func Main(args []string) int {
	return run(args, os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	fmt.Fprintf(stderr, "iomark: %v\n", err)
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	// cobra's own flag and argument errors are usage errors.
	return exitUsage
}
