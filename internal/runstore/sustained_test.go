package runstore

import (
	"context"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// TestLatestSustained: a network copy is compared with the newest earlier local sustained
// write of its drive, at its steady after-cliff rate; other copies and runs without a
// sustained write are passed over.
func TestLatestSustained(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	at := func(r *record.Run, id string, h int) *record.Run {
		r.ID = "0198a7c2-0000-7000-8000-00000000" + id
		r.CreatedAt = r.CreatedAt.Add(time.Duration(h) * time.Hour)
		return r
	}
	sustained := at(sampleRun(t), "a001", 0)
	sustained.Profile = "sustained"
	sustained.Tests = append(sustained.Tests, record.Test{Name: "sustained-write", MBPerS: 300, Primary: "mb_per_s",
		Sustained: &record.Sustained{CliffFound: true, AfterMBPerS: 95, SteadyState: true, SteadyMBPerS: 90}})
	quick := at(sampleRun(t), "a002", 1)
	oldCopy := at(sampleRun(t), "a003", 2)
	oldCopy.Profile = "network-copy"
	oldCopy.Tests = []record.Test{{Name: "network-copy", MBPerS: 50, Sustained: &record.Sustained{}}}
	for _, r := range []*record.Run{sustained, quick, oldCopy} {
		if err := Save(ctx, st, r, store.SourceLocal); err != nil {
			t.Fatal(err)
		}
	}
	copyRun := at(sampleRun(t), "b001", 3)
	copyRun.Profile = "network-copy"
	got, rate, ok, err := LatestSustained(ctx, st, copyRun)
	if err != nil || !ok || got.ID != sustained.ID || rate != 90 {
		t.Errorf("LatestSustained = %v, %v, %v, %v; want the sustained run at 90 MB/s", got, rate, ok, err)
	}
	first := at(sampleRun(t), "0001", -5)
	if _, _, ok, err := LatestSustained(ctx, st, first); ok || err != nil {
		t.Errorf("a drive's first run found %v, %v", ok, err)
	}
}
