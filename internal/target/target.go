// Package target gathers what iomark knows about the drive behind a path: its identity, its
// link to the CPU and that link's practical ceiling (package probe), the health the drive
// reports about itself (package health), the sensors a measurement samples (sensors.go) and
// the findings on it (findings.go, the one place they are put together). run, sink, verify,
// info and list gather through Gather; the command line only parses flags, wires and prints.
package target

import (
	"context"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// Options say what Gather asks and where.
type Options struct {
	// Probe is where the system is read (Root), how long a query of the drive may block and
	// whether any command may be sent to it (NoIoctl).
	Probe probe.Options
	// Health asks the identified drive what it reports about itself (read-only queries).
	Health bool
	// Verifies opens the results database Findings looks the drive's latest verify up in; it
	// returns nil, nil when there is none to read. nil: no verify is looked up.
	Verifies func(context.Context) (*store.Store, error)
}

// Facts are what is known of a target before it is measured or judged.
type Facts struct {
	// Path is the target as Gather was given it.
	Path string
	// Report is the drive's identity, its link to the CPU and the link's ceiling; nil when
	// the drive could not be identified.
	Report *probe.Report
	// Health is what the drive reported about itself; nil when not asked or not reported.
	Health *health.Health
	opts   Options
}

// Gather identifies the drive behind path and, when o.Health, asks it for its health. The
// Facts are never nil: when the drive cannot be identified the error says why, and a
// measurement can still go on, without a link ceiling.
func Gather(path string, o Options) (*Facts, error) {
	f := &Facts{Path: path, opts: o}
	rep, err := probe.Probe(path, o.Probe)
	if err != nil {
		return f, err
	}
	f.Report = rep
	if o.Health {
		f.Health = health.Read(rep, o.Probe)
	}
	return f, nil
}

// Keys are the product and unit keys the results database knows the drive rep describes by
// (record.Run's DeviceKey and UnitKey); "" when rep identifies no drive.
func Keys(rep *probe.Report) (device, unit string) {
	if rep == nil {
		return "", ""
	}
	r := &record.Run{Device: rep.Device, SD: rep.SD, USB: rep.USB, NVMe: rep.NVMe, SATA: rep.SATA}
	return r.DeviceKey(), r.UnitKey()
}
