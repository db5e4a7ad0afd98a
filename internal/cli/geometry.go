package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
)

// geometryResult is the JSON of `iomark info --geometry DISK --json` (docs/verify.md).
type geometryResult struct {
	Device     string            `json:"device"`
	SizeBytes  int64             `json:"size_bytes"`
	Geometry   *flash.Geometry   `json:"geometry"`
	Partitions []probe.Partition `json:"partitions"`
	Findings   []advice.Finding  `json:"findings"`
}

// runGeometry estimates the erase block of a whole disk (reads only) and checks its
// partitions against it.
func runGeometry(cmd *cobra.Command, target string, o probe.Options, asJSON bool) error {
	b, err := flash.OpenBlock(target, false, o.Root)
	if err != nil {
		return withExit(exitFailure, fmt.Errorf("--geometry needs a whole disk: %w", err))
	}
	defer b.Close()
	var hints []flash.RegisterHint
	if rep, err := probe.Probe(target, o); err == nil && rep.SD != nil {
		if rep.SD.AUSizeBytes > 0 {
			hints = append(hints, flash.RegisterHint{Name: "SD AU_SIZE (status register)", Bytes: int64(rep.SD.AUSizeBytes)})
		}
		if rep.SD.PreferredEraseBytes > 0 {
			hints = append(hints, flash.RegisterHint{Name: "preferred_erase_size (kernel)", Bytes: int64(rep.SD.PreferredEraseBytes)})
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
	res := geometryResult{Device: target, SizeBytes: b.SizeBytes, Geometry: g, Partitions: parts,
		Findings: advice.Sorted(append([]advice.Finding{}, advice.EraseBlockAlignment(parts, g, target)...))}
	if res.Partitions == nil {
		res.Partitions = []probe.Partition{}
	}
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printGeometry(out, res)
	return nil
}

func printGeometry(w io.Writer, res geometryResult) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	g := res.Geometry
	p("%s: %s, reads timed across boundaries of each size (flashbench -a's method; %d KiB reads, fastest of each, medians):", res.Device, bytesHuman(uint64(res.SizeBytes)), g.ReadBytes>>10)
	p("  %10s  %9s  %9s  %9s  %14s", "boundary", "before", "across", "after", "extra")
	for _, c := range g.Candidates {
		mark := ""
		if c.AlignBytes == g.EraseBlockBytes {
			mark = "  <- erase block"
		}
		p("  %10s  %7.0f µs  %7.0f µs  %7.0f µs  %6.0f ± %3.0f µs%s", binSize(c.AlignBytes), c.PreUS, c.OnUS, c.PostUS, c.DiffUS, c.SEUS, mark)
	}
	if g.EraseBlockBytes > 0 {
		p("erase block: %s (%s confidence): %s", binSize(g.EraseBlockBytes), g.Confidence, g.Reason)
	} else {
		p("erase block: unknown — %s", g.Reason)
	}
	for _, h := range g.Registers {
		agree := ""
		if h.Agrees != nil {
			agree = " — agrees"
			if !*h.Agrees {
				agree = " — differs"
			}
		}
		p("  %s says %s%s", h.Name, binSize(h.Bytes), agree)
	}
	for _, pt := range res.Partitions {
		p("partition %s starts at sector %d (%s)", pt.Name, pt.StartBytes/512, binSize(int64(pt.StartBytes)))
	}
	p("")
	if len(res.Findings) == 0 {
		p("findings: none")
		return
	}
	p("findings:")
	for _, f := range res.Findings {
		p("  %-4s %s: %s", f.Severity, f.ID, f.Message)
		p("       fix: %s", f.Fix)
		p("       evidence: %s", f.Evidence)
	}
}

// binSize prints a power-of-two size as erase blocks are quoted (KiB, MiB).
func binSize(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
