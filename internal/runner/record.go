package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// newRecord starts the result record of a run of profile on env's target, from what the
// probe found.
func newRecord(env Env, profile string, now time.Time) (*record.Run, error) {
	id, err := record.NewID()
	if err != nil {
		return nil, err
	}
	r := &record.Run{SchemaVersion: record.SchemaVersion, ID: id, CreatedAt: now.UTC().Truncate(time.Millisecond),
		ToolVersion: env.ToolVersion, ToolCommit: env.ToolCommit, Profile: profile, PriceUSD: env.PriceUSD,
		Target: record.Target{Path: env.Target}, Tests: []record.Test{}, Findings: []record.Finding{},
		Health: env.Health, Power: env.Power, DriveTemp: env.DriveTemp}
	if rep := env.Probe; rep != nil {
		r.Host, r.Device, r.Link = rep.Board, rep.Device, rep.Link
		r.USB, r.SD, r.NVMe, r.SATA = rep.USB, rep.SD, rep.NVMe, rep.SATA
		r.Mount, r.Partition, r.Queue = rep.Mount, rep.Partition, rep.Queue
		r.CeilingMBPerS, r.Ceiling = rep.CeilingMBPerS, rep.Ceiling
		r.SettingsFingerprint = fingerprint(rep)
	}
	return r, nil
}

// fingerprint hashes the settings that change results without changing the drive, so only
// runs made under the same settings are compared as like with like.
func fingerprint(rep *probe.Report) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+v)
		}
	}
	if b := rep.Board; b != nil {
		add("governor", b.Governor)
		add("kernel", b.Kernel)
	}
	if sd := rep.SD; sd != nil {
		add("sd-timing", sd.Timing)
		if sd.CommandQueue != nil {
			add("sd-cqe", fmt.Sprint(*sd.CommandQueue))
		}
	}
	if n := rep.NVMe; n != nil && n.PCIeGen > 0 {
		add("pcie", fmt.Sprintf("gen%dx%d", n.PCIeGen, n.PCIeWidth))
	}
	if u := rep.USB; u != nil {
		add("usb", fmt.Sprintf("%d/%s", u.SpeedMbps, u.Driver))
	}
	if m := rep.Mount; m != nil {
		add("fs", m.FSType)
		add("mount", m.Options)
	}
	if q := rep.Queue; q != nil {
		add("scheduler", q.Scheduler)
	}
	if len(parts) == 0 {
		return ""
	}
	sum := sha256.Sum256([]byte(strings.Join(parts, "\n")))
	return hex.EncodeToString(sum[:8])
}

// finish completes the record once the tests are done: scores, the profile's check, and the
// findings on the target and the figures, worst first within each.
func (r *runner) finish() {
	rec := r.rec
	rec.DurationS = time.Since(r.start).Seconds()
	if rec.Tests == nil {
		rec.Tests = []record.Test{}
	}
	if r.p.Score != nil {
		rec.Scores = r.p.Score(rec.Tests)
	}
	rec.Warnings = append(rec.Warnings, r.notes.warnings()...)
	if r.p.Check != nil && !rec.Interrupted {
		rec.Warnings = append(rec.Warnings, r.p.Check(rec.Tests, r.env.Probe)...)
	}
	applyPower(rec)
	for i := range rec.Tests {
		if s := rec.Tests[i].Sustained; s != nil {
			s.ThermalSuspect = advice.ThermalSuspect(rec, &rec.Tests[i])
		}
	}
	rec.Findings = append(advice.Evaluate(r.env.Probe), advice.EvaluateRun(rec)...)
}
