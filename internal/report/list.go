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
// model, first link hop, practical ceiling, mount points and health. The health column is
// left out when no drive was asked (list --no-ioctl).
func List(w io.Writer, rows []ListRow) error {
	asked := false
	for _, row := range rows {
		asked = asked || row.Health != nil
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "DEVICE\tCLASS\tSIZE\tMODEL\tLINK\tCEILING\tMOUNTED ON"
	if asked {
		head += "\tHEALTH"
	}
	fmt.Fprintln(tw, head)
	for _, row := range rows {
		e := row.ListEntry
		ceiling := "-"
		if e.CeilingMBPerS > 0 {
			ceiling = fmt.Sprintf("%.0f MB/s", e.CeilingMBPerS)
		}
		line := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s\t%s", e.Name, e.Class, fmtBytes(e.CapacityBytes),
			orDash(strings.TrimSpace(e.Vendor+" "+e.Model)), orDash(e.Link), ceiling,
			orDash(strings.Join(e.MountPoints, " ")))
		if asked {
			line += "\t" + row.Health.Summary()
		}
		fmt.Fprintln(tw, line)
	}
	return tw.Flush()
}
