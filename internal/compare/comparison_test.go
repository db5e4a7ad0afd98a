package compare

import (
	"os"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

func TestStanding(t *testing.T) {
	tests := []struct {
		value  float64
		others []float64
		rank   int
		median float64
		ratio  float64
	}{
		{10, []float64{5, 20}, 2, 12.5, 0.8},
		{30, []float64{5, 20, 10}, 1, 10, 3},
		{1, []float64{5}, 2, 5, 0.2},
		{1, []float64{0}, 1, 0, 0},
	}
	for _, tt := range tests {
		s := standing(tt.value, "MB/s", tt.others)
		if s.Rank != tt.rank || s.Of != len(tt.others)+1 || s.Median != tt.median || s.Ratio != tt.ratio {
			t.Errorf("standing(%v, %v) = %+v", tt.value, tt.others, s)
		}
	}
}

func TestBuild(t *testing.T) {
	pub, err := refdata.Load()
	if err != nil {
		t.Fatal(err)
	}
	run := sampleRun()
	c := Build(run, earlierRuns(), pub)
	if len(c.EarlierIDs) != 2 || c.EarlierIDs[0] != "019a0000-0000-7000-8000-00000000000a" {
		t.Fatalf("earlier runs %v: want the two of this card, oldest first", c.EarlierIDs)
	}
	if len(c.Earlier) != len(run.Tests) {
		t.Fatalf("%d earlier figures, want %d", len(c.Earlier), len(run.Tests))
	}
	for _, e := range c.Earlier {
		if e.Rank != 2 || e.Of != 3 {
			t.Errorf("%s: rank %d of %d, want 2 of 3 (between the slower and the faster run)", e.Test, e.Rank, e.Of)
		}
	}
	if c.Earlier[2].Unit != "IOPS" || c.Earlier[0].Unit != "MB/s" {
		t.Errorf("units: %s / %s", c.Earlier[2].Unit, c.Earlier[0].Unit)
	}
	// The sources that hold stock (not overclocked) Pi 4 microSD rows, from the data itself.
	pi4SD := map[string]bool{}
	for _, r := range pub {
		if fam, _ := refdata.BoardFamily(r.Board); fam == refdata.FamilyPi4 && r.StorageClass == "microsd" && !r.Overclocked {
			pi4SD[r.SourceID] = true
		}
	}
	units := map[string]string{}
	for _, p := range c.Published {
		units[p.Column] = p.Unit
		for _, s := range p.Sources {
			if !pi4SD[s] {
				t.Errorf("%s uses source %s, which has no Pi 4 microSD rows", p.Column, s)
			}
		}
	}
	want := map[string]string{"hdparm_read_mbps": "MiB/s", "dd_write_mbps": "MB/s", "rand4k_read_mbps": "MB/s",
		"rand4k_write_mbps": "MB/s", "rand4k_read_kbps_iozone": "KiB/s", "rand4k_write_kbps_iozone": "KiB/s"}
	for col, u := range want {
		if units[col] != u {
			t.Errorf("published %s compared in %q, want %q", col, units[col], u)
		}
	}
	// hdparm prints MiB/s: iomark's 43.1 MB/s must be compared as 41.1 MiB/s.
	for _, p := range c.Published {
		if p.Column == "hdparm_read_mbps" && (p.Value < 41.0 || p.Value > 41.2 || p.SameMethod) {
			t.Errorf("hdparm comparison %+v", p)
		}
	}
}

func TestComparisonScopes(t *testing.T) {
	pub, _ := refdata.Load()
	tests := []struct {
		name    string
		mutate  func(*record.Run)
		wantWhy string
	}{
		{"pi 5 has no published rows", func(r *record.Run) { r.Host.Model = "Raspberry Pi 5 Model B Rev 1.0" }, "no published results for Pi 5, microsd"},
		{"x86 board", func(r *record.Run) { r.Host.Model = "Standard PC (Q35 + ICH9, 2009)" }, "its board, Standard PC (Q35 + ICH9, 2009), is not one iomark knows"},
		{"virtio disk", func(r *record.Run) { r.Device.Class = probe.ClassVirtio }, "no published results for virtio drives"},
	}
	for _, tt := range tests {
		r := sampleRun()
		tt.mutate(r)
		c := Build(r, nil, pub)
		if len(c.Published) != 0 || !strings.Contains(c.PublishedWhy, tt.wantWhy) {
			t.Errorf("%s: %d published figures, why %q", tt.name, len(c.Published), c.PublishedWhy)
		}
	}
	// A Pi 3 run never meets the overclocked rows.
	r := sampleRun()
	r.Host.Model = "Raspberry Pi 3 Model B Rev 1.2"
	for _, row := range Peers(r, pub).Rows {
		if row.Overclocked {
			t.Errorf("overclocked row %d compared with a stock Pi 3", row.Row)
		}
	}
	// A native NVMe drive on a Pi 4-family board meets the published Compute Module 4 NVMe rows.
	r = sampleRun()
	r.Device.Class = probe.ClassNVMe
	ps := Peers(r, pub)
	if len(ps.Rows) == 0 {
		t.Fatal("no published NVMe rows for a Pi 4-family run")
	}
	for _, row := range ps.Rows {
		if row.StorageClass != "nvme" || row.Board != "Raspberry Pi Compute Module 4" {
			t.Errorf("row %d (%s, %s) compared with a Pi 4 NVMe run", row.Row, row.Board, row.StorageClass)
		}
	}
	// Rows with no figure the comparison can use (a maker's IOPS, a score alone) are not
	// counted as peers: the Pi 4 microSD set has no rpi-docs-sd-cards row.
	for _, row := range Peers(sampleRun(), pub).Rows {
		if !hasPubColumnFigure(row) || row.SourceID == "rpi-docs-sd-cards" {
			t.Errorf("row %d (%s) has no comparable figure but is a peer", row.Row, row.SourceID)
		}
	}
	// A USB SSD whose bridge is unknown meets the published USB SSDs whose bridge is unknown
	// too (turing-pi-cluster-11's Kingston USB 3.0 SSD rows on a Pi 4).
	r = sampleRun()
	r.Device.Class = probe.ClassUSBSSD
	r.USB = nil
	found := false
	for _, row := range Peers(r, pub).Rows {
		found = found || row.StorageClass == "usb-ssd"
	}
	if !found {
		t.Error("no usb-ssd rows for a Pi 4 USB SSD run with an unknown bridge")
	}
}

func TestSustainedWriteIsNotComparedWithDD(t *testing.T) {
	c := Build(sampleSustainedRun(), nil, loadPublished(t))
	if len(c.Published) != 0 {
		t.Errorf("a sustained write was ranked against %s", c.Published[0].Column)
	}
}

// docs/compare.md documents the mapping table; every published figure column must appear in
// it, compared or not.
func TestMappingDocumented(t *testing.T) {
	doc, err := os.ReadFile("../../docs/compare.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range refdata.FigureColumns() {
		if !strings.Contains(string(doc), "`"+c+"`") {
			t.Errorf("docs/compare.md does not describe %s", c)
		}
	}
}
