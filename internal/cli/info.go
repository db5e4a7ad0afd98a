package cli

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/target"
)

func init() { subcommands = append(subcommands, newInfoCmd) }

// infoResult is the JSON of `iomark info --json` (docs/info-json.md): the probe report with
// the findings beside it.
type infoResult struct {
	*probe.Report
	Health   *health.Health   `json:"health,omitempty"`
	Findings []record.Finding `json:"findings"`
}

// probeFlags are the flags info and list share.
type probeFlags struct {
	root    string
	timeout time.Duration
	json    bool
	noIoctl bool
}

func (f *probeFlags) add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.json, "json", false, "print one JSON object instead of the readable form")
	cmd.Flags().StringVar(&f.root, "root", os.Getenv("IOMARK_ROOT"),
		"read DIR/sys, DIR/proc and DIR/etc instead of the live system (also $IOMARK_ROOT)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", probe.DefaultTimeout,
		"longest wait for any probe that could block (ATA pass-through through a USB bridge)")
}

func (f *probeFlags) options() (probe.Options, error) {
	if f.root != "" {
		st, err := os.Stat(f.root)
		if err != nil || !st.IsDir() {
			return probe.Options{}, usageError("--root %s: not a directory — give the folder that holds sys/ and proc/", f.root)
		}
	}
	if f.timeout <= 0 {
		return probe.Options{}, usageError("--timeout %v: must be positive", f.timeout)
	}
	return probe.Options{Root: f.root, Timeout: f.timeout, NoIoctl: f.noIoctl}, nil
}

func newInfoCmd() *cobra.Command {
	var f probeFlags
	var geometry bool
	var dsn string
	cmd := &cobra.Command{
		Use:   "info [TARGET]",
		Short: "Identify the drive behind TARGET, its link to the CPU, its ceiling and findings (no benchmark I/O)",
		Long: `info resolves TARGET (a directory, a file, a partition or a disk such as /dev/sda1 or
just sda1; default the current directory) to its mount, filesystem, partition and whole disk,
walks the chain from the drive to the CPU (SD bus, USB, PCIe, SATA), names the slowest hop's
practical ceiling, asks the drive for its health (wear, errors, temperature: docs/health.md)
and lists findings with their fix. It reads sysfs and procfs and never writes; the only
commands it sends to a drive are read-only queries (ATA IDENTIFY and SMART reads, directly
or through a USB-SATA bridge; the NVMe health log page), each bounded by --timeout
(--no-ioctl sends none).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			path := "."
			if len(args) == 1 {
				path = args[0]
			}
			if geometry {
				return runGeometry(cmd, path, o, f.json)
			}
			// A database the user named must be readable: its verifies are findings here.
			if namedDB(dsn) != "" {
				st, err := openStore(cmd.Context(), dsn)
				if err != nil {
					return withExit(exitFailure, err)
				}
				st.Close()
			}
			facts, err := target.Gather(path, target.Options{Probe: o, Health: true, Verifies: existingStore(dsn)})
			if err != nil {
				return withExit(exitFailure, err)
			}
			res := infoResult{Report: facts.Report, Health: facts.Health, Findings: facts.Findings(cmd.Context(), nil)}
			out := cmd.OutOrStdout()
			if f.json {
				return printJSON(out, res)
			}
			return report.Info(out, res.Report, res.Health, res.Findings)
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&geometry, "geometry", false,
		"estimate the erase block (allocation unit) of the disk TARGET from read timing, and check its partitions against it (reads only; about 10 s)")
	addDBFlag(cmd, &dsn)
	cmd.Flags().BoolVar(&f.noIoctl, "no-ioctl", false,
		"send no command to the drive (no ATA IDENTIFY through a USB bridge, no health query); sysfs only")
	return cmd
}
