package report

import (
	"errors"
	"fmt"
	"io"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// Geometry prints `iomark info --geometry`: flashbench -a's table for every size timed, the
// estimate and its confidence or why it is unknown, what the registers say, the disk's
// partitions and the findings about them.
func Geometry(w io.Writer, device string, sizeBytes int64, g *flash.Geometry, parts []probe.Partition, findings []record.Finding) error {
	if g == nil {
		return errors.New("report: no geometry")
	}
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	p("%s: %s, reads timed across boundaries of each size (flashbench -a's method; %d KiB reads, fastest of each, medians):", device, fmtBytes(sizeBytes), g.ReadBytes>>10)
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
	for _, pt := range parts {
		p("partition %s starts at sector %d (%s)", pt.Name, pt.StartBytes/512, binSize(int64(pt.StartBytes)))
	}
	p("")
	if len(findings) == 0 {
		p("findings: none")
		return nil
	}
	p("findings:")
	for _, f := range findings {
		p("  %-4s %s: %s", f.Severity, f.ID, f.Message)
		p("       fix: %s", f.Fix)
		p("       evidence: %s", f.Evidence)
	}
	return nil
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
