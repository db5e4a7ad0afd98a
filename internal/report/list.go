package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
)

// ListRow is one disk of `iomark list`: what probe found and what the drive reports about
// its health (nil when it was not asked). Its JSON is the entry's with a "health" key.
type ListRow struct {
	probe.ListEntry
	Health *health.Health `json:"health,omitempty"`
}

// List prints `iomark list` for people: one line per whole disk with its class, capacity,
// model, first link hop, practical ceiling, mount points and health.
func List(w io.Writer, rows []ListRow) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "DEVICE\tCLASS\tSIZE\tMODEL\tLINK\tCEILING\tMOUNTED ON\tHEALTH")
	for _, row := range rows {
		e := row.ListEntry
		ceiling := "-"
		if e.CeilingMBPerS > 0 {
			ceiling = fmt.Sprintf("%.0f MB/s", e.CeilingMBPerS)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, e.Class, fmtBytes(e.CapacityBytes),
			orDash(strings.TrimSpace(e.Vendor+" "+e.Model)), orDash(e.Link), ceiling,
			orDash(strings.Join(e.MountPoints, " ")), row.Health.Summary())
	}
	return tw.Flush()
}
