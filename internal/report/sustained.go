package report

import (
	"fmt"
	"math"

	"github.com/iomark/iomark/internal/record"
)

// sustainedLines says what each sustained write of a run found, for the terminal and
// Markdown reports (JSON, HTML and the charts carry the same analysis): where the rate fell
// (time and bytes), the rates before and after, the drop, what it settled at, and the
// thermal verdict with the temperatures it rests on. None when the run has no sustained
// write.
func sustainedLines(r *record.Run) []string {
	var out []string
	for _, t := range r.Tests {
		s := t.Sustained
		if s == nil {
			continue
		}
		line := fmt.Sprintf("%s: wrote %s; ", t.Name, fmtBytes(s.WrittenBytes))
		switch {
		case s.CliffFound:
			line += fmt.Sprintf("cliff after %s and %s (what the drive's cache held, or its heat allowed): %s MB/s before, %s MB/s after (%.0f%% drop)",
				fmtSeconds(s.CliffAtS), fmtBytes(s.CliffAtBytes), fmtRate(s.BeforeMBPerS), fmtRate(s.AfterMBPerS), s.DropPct)
		case s.StopReason == "interrupted":
			line += "no cliff before it was interrupted"
		default:
			line += "no cliff: the rate never fell for good"
		}
		switch {
		case s.SteadyState && s.CliffFound:
			line += fmt.Sprintf("; settled at %s MB/s (the rate a long copy keeps)", fmtRate(s.SteadyMBPerS))
		case s.SteadyState:
			line += fmt.Sprintf("; steady at %s MB/s", fmtRate(s.SteadyMBPerS))
		default:
			line += "; never steady by the SNIA rule before the write ended"
		}
		if s.AverageMBPerS > 0 {
			line += fmt.Sprintf("; %s MB/s averaged over the whole write", fmtRate(s.AverageMBPerS))
		}
		if why := stopWords[s.StopReason]; why != "" {
			line += "; stopped: " + why
		}
		if s.Files > 1 {
			line += fmt.Sprintf("; written as %d files, the filesystem's largest file being %s", s.Files, fmtBytes(s.FileSizeLimitBytes))
		}
		out = append(out, line, "  heat: "+thermalVerdict(r, t))
	}
	return out
}

// stopWords say what ended a sustained write (record.Sustained.StopReason).
var stopWords = map[string]string{
	"settled":         "the rate after the cliff had settled",
	"size":            "it reached its size bound",
	"free-space":      "the filesystem's free space (less the margin kept free) ran out",
	"byte-budget":     "the profile's write budget was spent",
	"time":            "it reached its time bound",
	"time-budget":     "the profile's time was spent",
	"interrupted":     "interrupted",
	"file-size-limit": "the filesystem's largest file was reached and no further file could be made",
}

// driveTempFrom says where a run's drive temperatures come from (record.DriveTemp), as
// " (…)", or "" when the record does not say.
func driveTempFrom(r *record.Run) string {
	if r.DriveTemp == nil {
		return ""
	}
	if w, ok := map[string]string{"hwmon": "kernel sensor", "nvme-smart-log": "NVMe health log", "ata-smart": "SMART",
		"typed": "typed readings", "file": "readings from a file"}[r.DriveTemp.Source]; ok {
		return " (" + w + ")"
	}
	return ""
}

// thermalVerdict is the heat judgement of a sustained write (advice.ThermalSuspect, kept in
// the record) with the temperatures sampled during it.
func thermalVerdict(r *record.Run, t record.Test) string {
	what, lo, hi, ok := tempRange(r.Sensors, t.Name)
	if what == "drive" {
		what += driveTempFrom(r)
	}
	s := t.Sustained
	switch {
	case s.ThermalSuspect:
		return fmt.Sprintf("suspected: the %s was at %.0f-%.0f °C, hot or warming fast by the cliff (finding thermal-drop)", what, lo, hi)
	case !ok && s.CliffFound:
		return "not judged: no drive or SoC temperature could be read, so heat cannot be ruled out"
	case !ok:
		return "no temperature was read"
	case s.CliffFound:
		return fmt.Sprintf("not suspected: the %s stayed at %.0f-%.0f °C (the cliff is more likely a cache filling up)", what, lo, hi)
	default:
		return fmt.Sprintf("the %s stayed at %.0f-%.0f °C", what, lo, hi)
	}
}

// tempRange is the lowest and highest drive temperature sampled during test name, else the
// SoC's; ok is false when neither was read.
func tempRange(samples []record.SensorSample, name string) (what string, lo, hi float64, ok bool) {
	for _, src := range []struct {
		what string
		get  func(record.SensorSample) *float64
	}{
		{"drive", func(s record.SensorSample) *float64 { return s.DriveTempC }},
		{"SoC", func(s record.SensorSample) *float64 { return s.SoCTempC }},
	} {
		lo, hi = math.Inf(1), math.Inf(-1)
		for _, s := range samples {
			if v := src.get(s); s.Test == name && v != nil {
				lo, hi = math.Min(lo, *v), math.Max(hi, *v)
			}
		}
		if !math.IsInf(lo, 1) {
			return src.what, lo, hi, true
		}
	}
	return "", 0, 0, false
}
