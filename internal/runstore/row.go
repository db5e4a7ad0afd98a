package runstore

import (
	"encoding/json"
	"fmt"

	"github.com/iomark/iomark/internal/compare"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// Row maps a record to the store's indexed columns and per-test rows, with the full record as
// JSON. source is store.SourceLocal, SourceSubmitted or SourcePublished.
func Row(r *record.Run, source string) (store.Run, []store.Test, error) {
	raw, err := json.Marshal(r)
	if err != nil {
		return store.Run{}, nil, fmt.Errorf("encoding run %s: %w", r.ID, err)
	}
	row := store.Run{ID: r.ID, CreatedAt: r.CreatedAt, ToolVersion: r.ToolVersion, Profile: r.Profile,
		DeviceKey: r.DeviceKey(), Source: source, Record: raw, Decision: StoreDecision(compare.Decide(r))}
	if r.Host != nil {
		row.Board, row.BoardRevision, row.Arch = r.Host.Model, r.Host.Revision, r.Host.Arch
	}
	if r.Device != nil {
		row.DeviceClass, row.Vendor, row.Model = r.Device.Class, r.Device.Vendor, r.Device.Model
		row.CapacityBytes = int64(r.Device.CapacityBytes)
	}
	if len(r.Link) > 0 {
		// The hop next to the device is what the drive is attached by.
		row.LinkBus, row.LinkSpeedMbps = r.Link[0].Bus, r.Link[0].SpeedMbps
	}
	row.ScoreIomark = r.Scores.Iomark
	if r.Scores.Pibenchmarks != nil {
		v := float64(*r.Scores.Pibenchmarks)
		row.ScorePibenchmarks = &v
	}
	tests := make([]store.Test, 0, len(r.Tests))
	for _, t := range r.Tests {
		st := store.Test{RunID: r.ID, Name: t.Name, Op: t.Op, BS: t.BS, QD: t.QD, Jobs: t.Jobs,
			IOPS: t.IOPS, MBPerS: t.MBPerS, LatP50US: t.LatUS.P50, LatP99US: t.LatUS.P99, LatMaxUS: t.LatUS.Max}
		if t.Runs > 1 {
			ci := t.CI95Pct
			st.CI95Pct = &ci
		}
		tests = append(tests, st)
	}
	return row, tests, nil
}
