package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/probe"
)

func init() { subcommands = append(subcommands, newListCmd) }

func newListCmd() *cobra.Command {
	var f probeFlags
	cmd := &cobra.Command{
		Use:   "list",
		Short: "Show every block device with its identity, link and ceiling",
		Long: `list shows each whole disk (empty loop devices and RAM disks left out) with its class,
capacity, model, first link hop, practical ceiling and mount points. It reads sysfs only and
sends no command to any drive.`,
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
			out := cmd.OutOrStdout()
			if f.json {
				if entries == nil {
					entries = []probe.ListEntry{}
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(entries)
			}
			tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "DEVICE\tCLASS\tSIZE\tMODEL\tLINK\tCEILING\tMOUNTED ON")
			for _, e := range entries {
				ceiling := "-"
				if e.CeilingMBPerS > 0 {
					ceiling = fmt.Sprintf("%.0f MB/s", e.CeilingMBPerS)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, e.Class, bytesHuman(e.CapacityBytes),
					orDash(strings.TrimSpace(e.Vendor+" "+e.Model)), orDash(e.Link), ceiling,
					orDash(strings.Join(e.MountPoints, " ")))
			}
			return tw.Flush()
		},
	}
	f.add(cmd)
	return cmd
}
