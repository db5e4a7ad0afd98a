package power

import (
	"github.com/iomark/iomark/internal/probe"
)

// Info says what a Sampler reads.
type Info struct {
	Source string // "hwmon", "pi5-pmic" or "meter"
	Sensor string // e.g. "ina226 hwmon2 power1", "Pi 5 PMIC, 12 rails"
	Scope  string // what the figure covers and leaves out
}

// Sampler reads the power drawn now.
type Sampler interface {
	// Watts is one reading; ok is false when this reading failed (the next may work).
	Watts() (watts float64, ok bool)
	Info() Info
}

// Find returns the first power source the machine has: an hwmon power monitor, else the
// Raspberry Pi 5 PMIC; nil when there is none. It reads once to make sure the source answers.
func Find(o probe.Options) Sampler {
	if s := findHwmon(o); s != nil {
		return s
	}
	if s := findPMIC(o); s != nil {
		return s
	}
	return nil
}
