package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/record"
)

// NetworkCopy prints what a network copy adds to a run's terminal summary: the network and
// drive rates, which side was the limit, the cliff, the temperatures over the copy, and the
// drive's local sustained rate when one is on record. Nothing for a run without a copy.
func NetworkCopy(w io.Writer, run *record.Run) error {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	for _, t := range run.Tests {
		n := t.Network
		if n == nil {
			continue
		}
		p("network copy: %.2f GB received in %s (%s)", float64(n.ReceivedBytes)/1e9, fmtSeconds(t.DurationS), n.Ended)
		p("  network %.1f MB/s, drive %.1f MB/s while writing", n.MBPerS, n.DriveMBPerS)
		switch n.Limit {
		case "drive":
			p("  the drive was the limit: the receiver waited for it %.0f%% of the time", n.NetworkWaitPct)
		case "network":
			p("  the network was the limit: the drive waited for data %.0f%% of the time", n.DriveWaitPct)
		default:
			p("  neither side held the other back for long (drive waited %.0f%%, receiver %.0f%%)", n.DriveWaitPct, n.NetworkWaitPct)
		}
		if s := t.Sustained; s != nil && s.CliffFound {
			heat := ""
			if s.ThermalSuspect {
				heat = ", as the drive heated up"
			}
			p("  cliff after %.0f s (%.2f GB): %.1f → %.1f MB/s (−%.0f%%)%s", s.CliffAtS, float64(s.CliffAtBytes)/1e9, s.BeforeMBPerS, s.AfterMBPerS, s.DropPct, heat)
		} else if s != nil {
			p("  no cliff: the rate held over the copy")
		}
		if line := tempLine(run.Sensors, t.Name); line != "" {
			p("  %s", line)
		}
		if n.LocalSustainedMBPerS != nil {
			p("  local sustained write of this drive on record (run %s): %.1f MB/s; over the network the drive wrote at %.0f%% of it",
				shortRunID(n.LocalRunID), *n.LocalSustainedMBPerS, n.DriveMBPerS / *n.LocalSustainedMBPerS * 100)
		} else {
			p("  no local sustained run of this drive on record to compare with (iomark run --profile sustained)")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// tempLine gives the drive's (else the SoC's) temperature at the start, its highest and at
// the end of test name's samples.
func tempLine(samples []record.SensorSample, name string) string {
	var drive, soc []float64
	for _, s := range samples {
		if s.Test != name {
			continue
		}
		if s.DriveTempC != nil {
			drive = append(drive, *s.DriveTempC)
		}
		if s.SoCTempC != nil {
			soc = append(soc, *s.SoCTempC)
		}
	}
	what, ts := "drive", drive
	if len(ts) == 0 {
		what, ts = "SoC", soc
	}
	if len(ts) == 0 {
		return ""
	}
	hottest := ts[0]
	for _, c := range ts {
		hottest = max(hottest, c)
	}
	return fmt.Sprintf("%s temperature: %.0f °C at the start, %.0f °C at most, %.0f °C at the end (%d samples)", what, ts[0], hottest, ts[len(ts)-1], len(ts))
}

func shortRunID(id string) string {
	if len(id) > 12 {
		return id[len(id)-12:]
	}
	return id
}
