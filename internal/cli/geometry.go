package cli

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/report"
	"github.com/iomark/iomark/internal/target"
)

// geometryResult is the JSON of `iomark info --geometry DISK --json` (docs/verify.md).
type geometryResult struct {
	Device     string            `json:"device"`
	SizeBytes  int64             `json:"size_bytes"`
	Geometry   *flash.Geometry   `json:"geometry"`
	Partitions []probe.Partition `json:"partitions"`
	Findings   []record.Finding  `json:"findings"`
}

// runGeometry estimates the erase block of a whole disk (reads only) and checks its
// partitions against it.
func runGeometry(cmd *cobra.Command, disk string, o probe.Options, asJSON bool) error {
	b, err := flash.OpenBlock(disk, false, o.Root)
	if err != nil {
		return withExit(exitFailure, fmt.Errorf("--geometry needs a whole disk: %w", err))
	}
	defer b.Close()
	var hints []flash.RegisterHint
	if facts, err := target.Gather(disk, target.Options{Probe: o}); err == nil && facts.Report.SD != nil {
		sd := facts.Report.SD
		if sd.AUSizeBytes > 0 {
			hints = append(hints, flash.RegisterHint{Name: "SD AU_SIZE (status register)", Bytes: int64(sd.AUSizeBytes)})
		}
		if sd.PreferredEraseBytes > 0 {
			hints = append(hints, flash.RegisterHint{Name: "preferred_erase_size (kernel)", Bytes: int64(sd.PreferredEraseBytes)})
		}
		if sd.EraseSectorBytes > 0 {
			hints = append(hints, flash.RegisterHint{Name: "CSD SECTOR_SIZE (erase sector)", Bytes: int64(sd.EraseSectorBytes)})
		}
	} else if b.PreferredEraseBytes > 0 {
		hints = append(hints, flash.RegisterHint{Name: "preferred_erase_size (kernel)", Bytes: b.PreferredEraseBytes})
	}
	parts, err := probe.DiskPartitions(o, b.Name)
	if err != nil {
		parts = nil
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	progress := newLiveLine(cmd.ErrOrStderr())
	g, err := flash.EstimateEraseBlock(ctx, b, flash.GeometryOptions{SizeBytes: b.SizeBytes, Registers: hints,
		Progress: func(p flash.Progress) {
			if p.Total > 0 {
				progress.draw(fmt.Sprintf("timing reads across boundaries: %3.0f%%", float64(p.Done)/float64(p.Total)*100))
			}
		}})
	progress.clear()
	if err != nil {
		if ctx.Err() != nil {
			return withExit(exitInterrupted, fmt.Errorf("interrupted (nothing was written)"))
		}
		return withExit(exitFailure, err)
	}
	res := geometryResult{Device: disk, SizeBytes: b.SizeBytes, Geometry: g, Partitions: parts,
		Findings: target.EraseBlockFindings(parts, g, disk)}
	if res.Partitions == nil {
		res.Partitions = []probe.Partition{}
	}
	out := cmd.OutOrStdout()
	if asJSON {
		return printJSON(out, res)
	}
	return report.Geometry(out, res.Device, res.SizeBytes, res.Geometry, res.Partitions, res.Findings)
}
