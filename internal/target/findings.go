package target

import (
	"context"
	"encoding/json"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/runstore"
)

// Findings puts together what iomark finds on the target, worst first and in the rules'
// order within a severity (the rules are package advice's):
//   - with a run, the run's own findings, which the runner judged from the probe report, the
//     figures and the health the record keeps (runner); with none, the rules on the probe
//     report and on the drive's health;
//   - then what the drive's latest verify found (fake capacity, damage): a benchmark of a
//     fake card is a benchmark of a card that loses data.
//
// ctx bounds the verify's lookup. Without a run the result is never nil, so that JSON shows
// "findings": [] when all is well.
func (f *Facts) Findings(ctx context.Context, run *record.Run) []record.Finding {
	var fs []record.Finding
	if run != nil {
		fs = run.Findings
	} else {
		fs = advice.EvaluateDrive(f.Report, f.Health)
	}
	return advice.Sorted(append(fs, f.verifyFindings(ctx)...))
}

// EraseBlockFindings are info --geometry's findings: the partitions of disk checked against
// its estimated erase block g, worst first. Never nil.
func EraseBlockFindings(parts []probe.Partition, g *flash.Geometry, disk string) []record.Finding {
	return advice.Sorted(append([]record.Finding{}, advice.EraseBlockAlignment(parts, g, disk)...))
}

// verifyFindings looks up the latest verify of the drive and returns its findings
// (fake-capacity, flash-damaged). A database that cannot be read is skipped, since info and
// run must work without one.
func (f *Facts) verifyFindings(ctx context.Context) []record.Finding {
	rep := f.Report
	if f.opts.Verifies == nil || rep == nil || rep.Device == nil {
		return nil
	}
	_, unit := Keys(rep)
	if unit == "" {
		return nil
	}
	st, err := f.opts.Verifies(ctx)
	if err != nil || st == nil {
		return nil
	}
	defer st.Close()
	v, err := st.LatestVerify(ctx, unit)
	if err != nil || v == nil {
		return nil
	}
	var res flash.Result
	if err := json.Unmarshal(v.Result, &res); err != nil {
		return nil
	}
	return advice.VerifyFindings(&advice.Verified{ID: runstore.ShortID(v.ID), At: v.CreatedAt, Result: &res}, rep.Device.Path)
}
