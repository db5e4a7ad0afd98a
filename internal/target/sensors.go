package target

import (
	"time"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/power"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// SensorOptions are the readings a measurement has besides the machine's own sensors.
type SensorOptions struct {
	// MeterWatts is the power a meter showed during the measurement (W), kept as every test's
	// power; 0: the machine's own power source, if it has one.
	MeterWatts float64
	// Readings are drive temperatures a person gives during the measurement; nil: none.
	Readings *Readings
}

// Readings are drive temperatures read off a thermometer, typed or appended to a file by a
// logger, for a drive that reports none.
type Readings struct {
	// Source and Sensor describe them, as record.DriveTemp keeps them.
	Source, Sensor string
	// Take returns the reading that arrived since the last call, nil when none did.
	Take func() *float64
}

// Sensors are what a measurement samples once a second and how its record describes them.
type Sensors struct {
	// Power says where the samples' power comes from, or holds the meter's reading; nil:
	// no power figures.
	Power *record.Power
	// DriveTemp says where the samples' drive temperatures come from; nil: none are read.
	DriveTemp *record.DriveTemp
	// Sample takes one sample; nil when there is nothing to sample.
	Sample func() record.SensorSample
	// NoPowerWhy says why there are no power figures when the machine has a reading that is
	// not a measurement (a USB-C port's negotiated contract); "" otherwise.
	NoPowerWhy string
}

// Sensors composes what a measurement of the target samples once a second: the probe's
// temperatures and throttling, the drive's temperature from the best source it has (the
// readings a person gives, else the kernel's hwmon sensor, else the drive asked again at a
// rate it tolerates: health.TempReader), and the power source the machine has (or the meter
// reading, which is not sampled: it stands for every test).
func (f *Facts) Sensors(o SensorOptions) Sensors {
	rep, po := f.Report, f.opts.Probe
	var ps power.Sampler
	var s Sensors
	if o.MeterWatts > 0 {
		ps = power.Meter(o.MeterWatts)
	} else {
		ps = power.Find(po)
	}
	if ps != nil {
		info := ps.Info()
		s.Power = &record.Power{Source: info.Source, Sensor: info.Sensor, Scope: info.Scope}
		if o.MeterWatts > 0 {
			w := o.MeterWatts
			s.Power.MeterWatts = &w
			ps = nil
		}
	}
	var sampler *probe.Sampler
	if rep != nil {
		sampler = probe.NewSampler(rep, po)
	}
	typed := o.Readings
	var asked *health.TempReader
	switch {
	case typed != nil:
		s.DriveTemp = &record.DriveTemp{Source: typed.Source, Sensor: typed.Sensor}
	case sampler != nil && sampler.Read().DriveTempC != nil:
		s.DriveTemp = &record.DriveTemp{Source: "hwmon", Sensor: "the kernel's hwmon sensor of " + rep.Device.Path, EveryS: 1}
	default:
		if asked = health.NewTempReader(rep, po, f.Health); asked != nil {
			s.DriveTemp = &record.DriveTemp{Source: asked.Source, Sensor: rep.Device.Path, EveryS: asked.Every.Seconds()}
		}
	}
	if s.Power == nil {
		s.NoPowerWhy = power.PDNote(po)
	}
	if sampler == nil && ps == nil && s.DriveTemp == nil {
		return s
	}
	s.Sample = func() record.SensorSample {
		var smp record.SensorSample
		if sampler != nil {
			r := sampler.Read()
			smp = record.SensorSample{SoCTempC: r.SoCTempC, DriveTempC: r.DriveTempC, Throttled: r.Throttled}
		}
		switch {
		case typed != nil:
			smp.DriveTempC = typed.Take()
		case asked != nil && asked.Due(time.Now()):
			smp.DriveTempC = asked.Read(time.Now())
		}
		if ps != nil {
			if w, ok := ps.Watts(); ok {
				smp.PowerW = &w
			}
		}
		return smp
	}
	return s
}
