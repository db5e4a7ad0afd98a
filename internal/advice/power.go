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
	if t == nil {
		return nil
	}
	return throttleFinding(t, t.UnderVoltageNow, t.UnderVoltageOccurred, record.Finding{
		ID:      "undervoltage",
		Message: "under-voltage has occurred since boot: USB drives may reset and the CPU may be slowed",
		Fix:     "use the official power supply (5.1 V; 5 A for a Pi 5 with USB drives) and a short thick cable; power large drives from a powered hub",
	}, "the board is under-voltage now: USB drives may reset and results will be unreliable")
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
	return throttleFinding(t, now, past, record.Finding{
		ID:      "throttled",
		Message: "the CPU has been throttled or frequency-capped since boot: fast drives may be held back by the CPU",
		Fix:     "add cooling (heatsink, fan or the Active Cooler) and check the power supply; re-run once the board is cool",
	}, "the CPU is throttled or frequency-capped now: results would measure the cooling, not the drive")
}

// throttleFinding is f, with the firmware's flags as evidence, for a condition the firmware
// flags twice: a warning when it occurred since boot, bad (saying nowMessage) when it holds
// now. Nil when neither.
func throttleFinding(t *probe.Throttle, now, past bool, f record.Finding, nowMessage string) []record.Finding {
	if !now && !past {
		return nil
	}
	f.Severity = record.SeverityWarn
	f.Evidence = evidence(t)
	if now {
		f.Severity = record.SeverityBad
		f.Message = nowMessage
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
