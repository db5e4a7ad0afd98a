package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/iomark/iomark/internal/probe"
)

// List prints `iomark list` for people: one line per whole disk with its class, capacity,
// model, first link hop, practical ceiling and mount points.
func List(w io.Writer, entries []probe.ListEntry) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tCLASS\tSIZE\tMODEL\tLINK\tCEILING\tMOUNTED ON")
	for _, e := range entries {
		ceiling := "-"
		if e.CeilingMBPerS > 0 {
			ceiling = fmt.Sprintf("%.0f MB/s", e.CeilingMBPerS)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, e.Class, fmtBytes(e.CapacityBytes),
			orDash(strings.TrimSpace(e.Vendor+" "+e.Model)), orDash(e.Link), ceiling,
			orDash(strings.Join(e.MountPoints, " ")))
	}
	return tw.Flush()
}
