package health

import (
	"time"

	"github.com/iomark/iomark/internal/probe"
)

// How often a drive's own temperature is asked again during a run. Each ask is a command to
// the drive (an NVMe log page; ATA IDENTIFY, SMART READ DATA and SCT status through a USB
// bridge's SAT pass-through), and a drive busy with a long write, or a bridge that stalls on
// pass-through commands, must not be asked every second: every 10 s for NVMe (smartctl's
// and nvme-cli's monitors poll minutes apart; NVMe answers a log page from its controller),
// every 30 s for ATA.
const (
	nvmeTempEvery = 10 * time.Second
	ataTempEvery  = 30 * time.Second
)

// TempReader asks a drive for its temperature again, the way Read asked it before the run.
type TempReader struct {
	Source string        // SourceNVMe or SourceATA
	Every  time.Duration // the least time between two asks
	read   func() (*Health, error)
	last   time.Time
}

// NewTempReader returns a reader of the drive's own temperature during a run, or nil when
// the health read before the run (h) gave none: a drive that did not report one then is not
// asked again.
func NewTempReader(rep *probe.Report, o probe.Options, h *Health) *TempReader {
	if rep == nil || rep.Device == nil || h == nil || h.TemperatureC == nil || mayAsk(o) != "" {
		return nil
	}
	path := rep.Device.Path
	switch h.Source {
	case SourceNVMe:
		return &TempReader{Source: SourceNVMe, Every: nvmeTempEvery, read: func() (*Health, error) { return readNVMe(o, path) }}
	case SourceATA:
		model := ataModel(rep)
		return &TempReader{Source: SourceATA, Every: ataTempEvery, read: func() (*Health, error) { return readATA(o, path, model) }}
	}
	return nil
}

// Due reports whether Every has passed since the last ask (true before the first).
func (t *TempReader) Due(now time.Time) bool { return t.last.IsZero() || now.Sub(t.last) >= t.Every }

// Read asks the drive now; nil when it did not answer with a temperature.
func (t *TempReader) Read(now time.Time) *float64 {
	t.last = now
	h, err := t.read()
	if err != nil || h == nil {
		return nil
	}
	return h.TemperatureC
}
