// Package cli wires iomark's subcommands (one file each) to the packages that do the work.
// It parses flags, picks human or JSON output and maps errors to exit statuses; it holds no
// measurement, probing or storage logic of its own.
package cli
