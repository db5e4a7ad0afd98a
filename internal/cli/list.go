package cli

import (
	"encoding/json"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/report"
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
			return report.List(out, entries)
		},
	}
	f.add(cmd)
	return cmd
}
