package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// underVoltage: the Pi firmware saw the supply drop below ~4.63 V; USB drives then brown out
// or reset, and the CPU may be capped.
func underVoltage(r *probe.Report) []record.Finding {
	t := throttleOf(r)
	if t == nil || !t.UnderVoltageNow && !t.UnderVoltageOccurred {
		return nil
	}
	f := record.Finding{
		ID:       "undervoltage",
		Severity: record.SeverityWarn,
		Message:  "under-voltage has occurred since boot: USB drives may reset and the CPU may be slowed",
		Fix:      "use the official power supply (5.1 V; 5 A for a Pi 5 with USB drives) and a short thick cable; power large drives from a powered hub",
		Evidence: evidence(t),
	}
	if t.UnderVoltageNow {
		f.Severity = record.SeverityBad
		f.Message = "the board is under-voltage now: USB drives may reset and results will be unreliable"
	}
	return one(f)
}

// throttled: the firmware capped the ARM frequency or throttled for temperature; a benchmark
// would measure the cooling, not the drive.
func throttled(r *probe.Report) []record.Finding {
	t := throttleOf(r)
	if t == nil {
		return nil
	}
	now := t.ThrottledNow || t.FreqCappedNow || t.SoftTempLimitNow
	past := t.ThrottledOccurred || t.FreqCappedOccurred || t.SoftTempLimitOccurred
	if !now && !past {
		return nil
	}
	f := record.Finding{
		ID:       "throttled",
		Severity: record.SeverityWarn,
		Message:  "the CPU has been throttled or frequency-capped since boot: fast drives may be held back by the CPU",
		Fix:      "add cooling (heatsink, fan or the Active Cooler) and check the power supply; re-run once the board is cool",
		Evidence: evidence(t),
	}
	if now {
		f.Severity = record.SeverityBad
		f.Message = "the CPU is throttled or frequency-capped now: results would measure the cooling, not the drive"
	}
	return one(f)
}

func throttleOf(r *probe.Report) *probe.Throttle {
	if r.Board == nil {
		return nil
	}
	return r.Board.Throttled
}

func evidence(t *probe.Throttle) string {
	if t.Raw != "" {
		return fmt.Sprintf("get_throttled=0x%s (%s)", t.Raw, t.Source)
	}
	return t.Source
}
