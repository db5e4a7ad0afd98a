package cli

import (
	"sync"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/target"
)

func init() { subcommands = append(subcommands, newListCmd) }

func newListCmd() *cobra.Command {
	var f probeFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Show every block device with its identity, link and ceiling",
		Long: `list shows each whole disk (empty loop devices and RAM disks left out) with its class,
capacity, model, first link hop, practical ceiling, mount points and health (wear, errors:
docs/health.md). Identification reads sysfs only; the health column asks each drive with
read-only queries (the NVMe health log, ATA SMART reads), all drives at once, each bounded by
--timeout; --no-ioctl sends no command and leaves the column empty.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			entries, err := probe.List(o)
			if err != nil {
				return withExit(exitFailure, err)
			}
			rows := listHealth(entries, o)
			out := cmd.OutOrStdout()
			if f.json {
				return printJSON(out, rows)
			}
			return report.List(out, rows)
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&f.noIoctl, "no-ioctl", false, "send no command to any drive: no health column")
	return cmd
}

// listHealth asks every disk for its health at once (each query is bounded by the probe
// timeout, so the list waits at most about one timeout), unless o.NoIoctl.
func listHealth(entries []probe.ListEntry, o probe.Options) []report.ListRow {
	rows := make([]report.ListRow, len(entries))
	var wg sync.WaitGroup
	for i, e := range entries {
		rows[i].ListEntry = e
		if o.NoIoctl {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if facts, err := target.Gather("/dev/"+e.Name, target.Options{Probe: o, Health: true}); err == nil {
				rows[i].Health = facts.Health
			}
		}()
	}
	wg.Wait()
	return rows
}
