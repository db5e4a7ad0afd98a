package runstore

import (
	"context"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// LatestSustained finds the newest earlier run of run's drive that measured a sustained write
// locally (any profile but network-copy), for a network copy to be compared with. It returns
// that run, the rate to compare (the steady rate after the cliff when there is one, else the
// after-cliff mean, else the test's rate, MB/s) and true; false when there is none.
func LatestSustained(ctx context.Context, st *store.Store, run *record.Run) (*record.Run, float64, bool, error) {
	earlier, err := Earlier(ctx, st, run)
	if err != nil {
		return nil, 0, false, err
	}
	for _, r := range earlier {
		if r.Profile == "network-copy" {
			continue
		}
		for _, t := range r.Tests {
			s := t.Sustained
			if s == nil {
				continue
			}
			switch {
			case s.SteadyState && s.SteadyMBPerS > 0:
				return r, s.SteadyMBPerS, true, nil
			case s.CliffFound && s.AfterMBPerS > 0:
				return r, s.AfterMBPerS, true, nil
			case t.MBPerS > 0:
				return r, t.MBPerS, true, nil
			}
		}
	}
	return nil, 0, false, nil
}
