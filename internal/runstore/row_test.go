package runstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

// openStore opens a SQLite store in t's temporary directory, closed when t ends.
func openStore(t *testing.T) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// sampleRun is a quick run of a microSD card: placeholder figures for a mapping test, not a
// measurement.
func sampleRun(t *testing.T) *record.Run {
	id, err := record.NewID()
	if err != nil {
		t.Fatal(err)
	}
	pib := 8905
	return &record.Run{SchemaVersion: record.SchemaVersion, ID: id, CreatedAt: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		ToolVersion: "test", Profile: "quick",
		Host:   &probe.Board{Model: "Raspberry Pi 4 Model B Rev 1.4", Revision: "c03114"},
		Device: &probe.Device{Name: "mmcblk0", Class: probe.ClassMicroSD, Vendor: "SanDisk", Model: "SN64G", CapacityBytes: 63864569856},
		SD:     &probe.SD{ManfID: 3, OEMID: "SD", Name: "SN64G"},
		Link:   []probe.Hop{{Bus: "sd", SpeedMbps: 400}},
		Tests: []record.Test{{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, IOPS: 2600, MBPerS: 10.65,
			Primary: "iops", LatUS: record.Latency{P50: 380, P99: 900, Max: 2000}, CI95Pct: 1.2, Runs: 3}},
		Scores: record.Scores{Pibenchmarks: &pib}}
}

func TestRowRoundTrip(t *testing.T) {
	r := sampleRun(t)
	st, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	row, tests, err := Row(r, store.SourceLocal)
	if err != nil {
		t.Fatal(err)
	}
	if row.DeviceClass != "microsd" || row.LinkBus != "sd" || *row.ScorePibenchmarks != 8905 || len(tests) != 1 || tests[0].CI95Pct == nil {
		t.Fatalf("row %+v tests %+v", row, tests)
	}
	if err := st.SaveRun(context.Background(), row, tests); err != nil {
		t.Fatal(err)
	}
	got, _, err := st.GetRun(context.Background(), r.ID)
	if err != nil {
		t.Fatal(err)
	}
	back, err := record.Decode(got.Record)
	if err != nil {
		t.Fatal(err)
	}
	if back.ID != r.ID || back.TestByName("rand-read-4k-qd1").IOPS != 2600 || back.SD.Name != "SN64G" {
		t.Errorf("record did not survive the store: %+v", back)
	}
}
