package probe

import (
	"path/filepath"
	"time"
)

// Reading is one sample of the sensors that explain a run: the SoC and drive temperatures
// and the Pi firmware's throttling word. Absent sensors stay nil or empty.
type Reading struct {
	SoCTempC   *float64
	DriveTempC *float64
	Throttled  string // get_throttled as the firmware prints it, e.g. 0x50005
}

// Sampler reads the sensors of one probed target repeatedly, for the seconds of a run. It
// never writes; every read is bounded by the probe timeout.
type Sampler struct {
	o        Options
	driveDir []string // directories whose hwmon gives the drive's temperature
}

// NewSampler prepares sampling for the target r describes.
func NewSampler(r *Report, o Options) *Sampler {
	s := &Sampler{o: o}
	if r != nil && r.Device != nil && r.Device.Sysfs != "" {
		dev := o.path(r.Device.Sysfs)
		// SATA drivetemp hangs off the SCSI device; NVMe's hwmon off the controller, which
		// is the namespace's parent (or, on kernels before 5.5, the PCI function above it).
		s.driveDir = []string{filepath.Join(dev, "device"), filepath.Dir(dev), filepath.Join(filepath.Dir(dev), "device")}
		if c, ok := nvmeController([]string{filepath.Dir(dev)}); ok { // native multipath
			s.driveDir = append(s.driveDir, c, filepath.Join(c, "device"))
		}
	}
	if s.o.Timeout == 0 {
		s.o.Timeout = 2 * time.Second
	}
	return s
}

// Read takes one sample.
func (s *Sampler) Read() Reading {
	r := Reading{SoCTempC: socTemp(s.o)}
	for _, d := range s.driveDir {
		if t := hwmonTemp(s.o, d); t != nil {
			r.DriveTempC = t
			break
		}
	}
	if t := readThrottle(s.o); t != nil {
		r.Throttled = t.Raw
	}
	return r
}
