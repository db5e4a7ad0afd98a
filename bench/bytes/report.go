package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/iomark/iomark/bench/internal/benchkit"
)

// render prints the table: per drive and profile, the budget, what iomark wrote (its record
// and the device's count), the peer and what it writes, and whether iomark stayed at or
// under the peer by both counts.
func render(rows []row, version, loadStart, loadEnd string) string {
	var b strings.Builder
	m := benchkit.ReadMachine()
	fmt.Fprintf(&b, "#### %s — %s\n\n", m.Date, version)
	fmt.Fprintf(&b, "%s, %d cores, Linux %s. Load average %s at the start, %s at the end.\n", m.CPU, m.Cores, m.Kernel, loadStart, loadEnd)
	fmt.Fprintf(&b, "Command: `go run ./bench/bytes %s`\n\n", strings.Join(os.Args[1:], " "))
	b.WriteString("| drive | profile | budget | iomark wrote (record) | device counted | peer | peer writes | record / peer | at or under |\n")
	b.WriteString("|---|---|--:|--:|--:|---|--:|--:|---|\n")
	for _, r := range rows {
		if r.Err != "" {
			fmt.Fprintf(&b, "| %s | %s | %s | failed: %s | | %s | | | |\n", r.Drive, r.Profile, mib(r.BudgetBytes), oneLine(r.Err), r.Peer)
			continue
		}
		// The peer's bytes are what it asks the filesystem to write; iomark's record counts the
		// same (its test file, layout and every run), so the two are held to each other. The
		// device's count adds the filesystem's journal and metadata, which the peer's own run
		// would add too: it is shown to check the record, not held to the peer.
		ok := "yes"
		if r.BytesWritten > r.PeerBytes {
			ok = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %.2f | %s |\n", r.Drive, r.Profile, mib(r.BudgetBytes),
			mib(r.BytesWritten), mib(r.DeviceBytes), r.Peer, mib(r.PeerBytes), float64(r.BytesWritten)/float64(r.PeerBytes), ok)
	}
	b.WriteString("\nRuns of each write test (an interval needs at least 3):\n\n")
	for _, r := range rows {
		if r.Err == "" && r.WriteRuns != "" {
			fmt.Fprintf(&b, "- %s, %s (%.0f s): %s\n", r.Drive, r.Profile, r.DurationS, r.WriteRuns)
		}
	}
	b.WriteString("\nHow each peer's bytes are counted:\n\n")
	seen := map[string]bool{}
	for _, r := range rows {
		if !seen[r.Peer] {
			seen[r.Peer] = true
			fmt.Fprintf(&b, "- %s: %s\n", r.Peer, r.PeerHow)
		}
	}
	return b.String()
}

func mib(n int64) string { return fmt.Sprintf("%d MiB", n>>20) }

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return strings.ReplaceAll(s, "|", "/")
}
