package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/engine"
)

// Job prints `iomark job` for people: the job's shape and target, its figures, latency
// percentiles (each direction of a mixed job too), fsyncs, CPU time, what was measured and
// written.
func Job(w io.Writer, r *engine.Result) error {
	if r == nil {
		return fmt.Errorf("job report: no result given")
	}
	var b strings.Builder
	writeJob(&b, r)
	_, err := io.WriteString(w, b.String())
	return err
}

func writeJob(w io.Writer, r *engine.Result) {
	mode := "O_DIRECT"
	if !r.Direct {
		mode = "buffered (page cache)"
	}
	fmt.Fprintf(w, "%s %s, QD %d × %d job(s), %s, %s\n", r.Pattern, engine.FormatSize(int64(r.BlockSize)), r.QD, r.Jobs, r.Engine, mode)
	fmt.Fprintf(w, "target    %s (%s, working set %s)\n", r.Target, r.TargetKind, engine.FormatSize(r.WorkingSetBytes))
	if r.EngineNote != "" {
		fmt.Fprintf(w, "note      %s\n", r.EngineNote)
	}
	fmt.Fprintf(w, "IOPS      %.0f\n", r.IOPS)
	fmt.Fprintf(w, "bandwidth %.2f MB/s (%.2f MiB/s)\n", r.MBPerS, r.MiBPerS)
	printLat(w, "latency", r.LatUS.P50, r.LatUS.P90, r.LatUS.P99, r.LatUS.P999, r.LatUS.Max, r.LatUS.Mean)
	if r.Read != nil && r.Write != nil {
		for _, d := range []struct {
			name string
			d    *engine.Direction
		}{{"read", r.Read}, {"write", r.Write}} {
			fmt.Fprintf(w, "%-9s %.0f IOPS, %.2f MB/s\n", d.name, d.d.IOPS, d.d.MBPerS)
			printLat(w, "  latency", d.d.LatUS.P50, d.d.LatUS.P90, d.d.LatUS.P99, d.d.LatUS.P999, d.d.LatUS.Max, d.d.LatUS.Mean)
		}
	}
	if r.Fsync != nil {
		fmt.Fprintf(w, "fsync     %d calls, p50 %s, p99 %s, %.2f s in all\n", r.Fsync.Count, us(r.Fsync.LatUS.P50), us(r.Fsync.LatUS.P99), r.Fsync.TotalS)
	}
	fmt.Fprintf(w, "CPU       usr %.2f s, sys %.2f s (%.1f µs per I/O)\n", r.CPU.UsrS, r.CPU.SysS, r.CPU.USPerIO)
	fmt.Fprintf(w, "measured  %d I/Os, %s in %.2f s (after %.1f s ramp)\n", r.IOs, fmtBytes(r.Bytes), r.DurationS, r.RampS)
	written := fmtBytes(r.BytesWritten)
	if r.LayoutBytes > 0 {
		written += fmt.Sprintf(" (%s of it laying out the test file)", fmtBytes(r.LayoutBytes))
	}
	fmt.Fprintf(w, "written   %s\n", written)
	if r.Interrupted {
		fmt.Fprintln(w, "status    interrupted: figures cover the time measured before the signal")
	}
}

func printLat(w io.Writer, label string, p50, p90, p99, p999, maxUS, mean float64) {
	fmt.Fprintf(w, "%-9s p50 %s, p90 %s, p99 %s, p99.9 %s, max %s, mean %s\n", label, us(p50), us(p90), us(p99), us(p999), us(maxUS), us(mean))
}

// us prints a latency in microseconds, or milliseconds once it is long.
func us(v float64) string {
	if v >= 10000 {
		return fmt.Sprintf("%.1f ms", v/1000)
	}
	if v >= 100 {
		return fmt.Sprintf("%.0f µs", v)
	}
	return fmt.Sprintf("%.1f µs", v)
}
