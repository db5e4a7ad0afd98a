package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/compare/comparetest"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

func profileRun(t *testing.T, name string) *record.Run { return comparetest.ProfileRun(t, name) }

// TestEveryPublishedColumnIsAccounted: each figure column of the published results is either
// compared (pubColumns) or listed with its reason (notCompared), never both, never neither.
func TestEveryPublishedColumnIsAccounted(t *testing.T) {
	mapped := map[string]int{}
	for _, c := range pubColumns {
		mapped[c.column]++
		if len(c.candidates) == 0 || c.unit == "" || c.method == "" || c.label == "" {
			t.Errorf("%s: incomplete mapping %+v", c.column, c)
		}
		for _, cand := range c.candidates {
			if cand.note == "" {
				t.Errorf("%s: a candidate without a note", c.column)
			}
		}
		if c.rowFactor != nil && c.rowNote == "" {
			t.Errorf("%s converts rows without saying so", c.column)
		}
	}
	cols := refdata.FigureColumns()
	for _, c := range cols {
		why, skipped := notCompared[c]
		switch {
		case mapped[c] > 1:
			t.Errorf("%s mapped %d times", c, mapped[c])
		case mapped[c] == 1 && skipped:
			t.Errorf("%s is both compared and not compared", c)
		case mapped[c] == 0 && !skipped:
			t.Errorf("published column %s is neither compared nor listed in notCompared with a reason", c)
		case skipped && why == "":
			t.Errorf("%s is not compared and no reason is given", c)
		}
	}
	for c := range mapped {
		if !slices.Contains(cols, c) {
			t.Errorf("pubColumns maps %s, which is no published figure column", c)
		}
	}
	for c := range notCompared {
		if !slices.Contains(cols, c) {
			t.Errorf("notCompared lists %s, which is no published figure column", c)
		}
	}
}

// TestWhichTestEachPublishedColumnMeets: for every compared column, the iomark test (or score)
// each profile sets beside it, and whether that is the published method; "" is none. Runs
// are built from the profiles themselves, so a profile that changes its tests changes this.
func TestWhichTestEachPublishedColumnMeets(t *testing.T) {
	profiles := []string{"quick", "pibenchmarks", "sbc-reviews", "cdm", "sustained"}
	// A trailing "=" marks the same method, "~" a method that differs.
	want := map[string][5]string{
		"hdparm_read_mbps":          {"seq-read-1m~", "hdparm-read=", "seq-read-1m~", "seq-read-1m-q1t1~", ""},
		"hdparm_direct_read_mbps":   {"seq-read-1m~", "hdparm-read~", "seq-read-1m~", "seq-read-1m-q1t1~", ""},
		"dd_write_mbps":             {"seq-write-1m~", "dd-write-4k=", "seq-write-1m~", "seq-write-1m-q1t1~", ""},
		"dd_read_mbps":              {"seq-read-1m~", "hdparm-read~", "seq-read-1m~", "seq-read-1m-q1t1~", ""},
		"rand4k_read_mbps":          {"rand-read-4k-qd1=", "iozone-rand-read-4k=", "rand-read-4k-qd1=", "rand-read-4k-q1t1=", ""},
		"rand4k_write_mbps":         {"rand-write-4k-qd1=", "iozone-rand-write-4k=", "rand-write-4k-qd1=", "rand-write-4k-q1t1=", ""},
		"rand4k_read_kbps_iozone":   {"rand-read-4k-qd1=", "iozone-rand-read-4k=", "rand-read-4k-qd1=", "rand-read-4k-q1t1=", ""},
		"rand4k_write_kbps_iozone":  {"rand-write-4k-qd1=", "iozone-rand-write-4k=", "rand-write-4k-qd1=", "rand-write-4k-q1t1=", ""},
		"seq4k_read_kbps_iozone":    {"", "iozone-read-4k=", "", "", ""},
		"seq4k_write_kbps_iozone":   {"", "iozone-write-4k~", "", "", ""},
		"seq4k_rewrite_kbps_iozone": {"", "iozone-write-4k=", "", "", ""},
		"iozone_rand1m_read_mbps":   {"", "", "rand-read-1m-qd1=", "", ""},
		"iozone_rand1m_write_mbps":  {"", "", "rand-write-1m-qd1=", "", ""},
		"iozone_seq1m_read_mbps":    {"seq-read-1m=", "", "seq-read-1m=", "seq-read-1m-q1t1=", ""},
		"iozone_seq1m_write_mbps":   {"seq-write-1m=", "", "seq-write-1m=", "seq-write-1m-q1t1=", ""},
		"seq1m_write_kbps_iozone":   {"seq-write-1m~", "", "seq-write-1m~", "seq-write-1m-q1t1~", ""},
		"seq1m_rewrite_kbps_iozone": {"seq-write-1m=", "", "seq-write-1m=", "seq-write-1m-q1t1=", ""},
		"rand1m_read_kbps_iozone":   {"", "", "rand-read-1m-qd1=", "", ""},
		"rand1m_write_kbps_iozone":  {"", "", "rand-write-1m-qd1=", "", ""},
		"fio_seq1m_read_mbps":       {"seq-read-1m~", "", "seq-read-1m~", "seq-read-1m-q8t1~", ""},
		"fio_seq1m_write_mbps":      {"seq-write-1m~", "", "seq-write-1m~", "seq-write-1m-q8t1~", ""},
		"fio_rand4k_read_iops":      {"rand-read-4k-qd32~", "fio-rand-read-4k-qd64=", "", "rand-read-4k-q32t1~", ""},
		"fio_rand4k_write_iops":     {"rand-write-4k-qd32~", "fio-rand-write-4k-qd64=", "", "rand-write-4k-q32t1~", ""},
		"pibenchmarks_score":        {"", "pibenchmarks score=", "", "", ""},
	}
	runs := make([]*record.Run, len(profiles))
	for i, p := range profiles {
		runs[i] = profileRun(t, p)
	}
	for _, col := range pubColumns {
		w, ok := want[col.column]
		if !ok {
			t.Errorf("%s: no expectation: add the test each profile meets it with", col.column)
			continue
		}
		for i, r := range runs {
			got := ""
			if o, c, ok := matchColumn(r, col); ok {
				got = o.name + map[bool]string{true: "=", false: "~"}[c.same]
			}
			if got != w[i] {
				t.Errorf("%s in a %s run meets %q, want %q", col.column, profiles[i], got, w[i])
			}
		}
	}
	if len(want) != len(pubColumns) {
		t.Errorf("%d expectations for %d compared columns", len(want), len(pubColumns))
	}
}

// TestPibenchmarksRunMeetsLikeWithLike: the issue-11 case. A pibenchmarks run on a Pi 4 microSD
// card: its buffered dd-write-4k is compared with published dd (same method) and never with
// iozone's 4K sequential writes, which meet its O_DIRECT iozone-write-4k; its hdparm-read meets
// the published hdparm figures; its score meets the published PiBenchmarks scores.
func TestPibenchmarksRunMeetsLikeWithLike(t *testing.T) {
	c := Build(profileRun(t, "pibenchmarks"), nil, loadPublished(t))
	got := map[string]PublishedFigure{}
	for _, p := range c.Published {
		got[p.Column] = p
	}
	for col, test := range map[string]string{
		"dd_write_mbps": "dd-write-4k", "hdparm_read_mbps": "hdparm-read", "seq4k_write_kbps_iozone": "iozone-write-4k",
		"seq4k_read_kbps_iozone": "iozone-read-4k", "rand4k_write_mbps": "iozone-rand-write-4k", "pibenchmarks_score": "pibenchmarks score",
		"fio_rand4k_read_iops": "fio-rand-read-4k-qd64",
	} {
		p, ok := got[col]
		if !ok {
			t.Errorf("%s not compared (published: %v)", col, c.Published)
			continue
		}
		if p.Test != test {
			t.Errorf("%s compared with %s, want %s", col, p.Test, test)
		}
	}
	for _, p := range c.Published {
		if p.Test == "dd-write-4k" && p.Column != "dd_write_mbps" {
			t.Errorf("the buffered dd-write-4k is compared with %s", p.Column)
		}
	}
	if p := got["dd_write_mbps"]; !p.SameMethod {
		t.Error("dd-write-4k against published dd is the same method")
	}
	if p := got["pibenchmarks_score"]; p.Unit != "points" || p.Value != float64(*profileRun(t, "pibenchmarks").Scores.Pibenchmarks) {
		t.Errorf("score comparison %+v", p)
	}
}

// TestIozoneMiBRowsAreConverted: the sbc-reviews rows print iozone kB/s ÷ 1024 as "MB/s"; they
// are ranked in MB/s after conversion, and the note says how many were converted.
func TestIozoneMiBRowsAreConverted(t *testing.T) {
	r := profileRun(t, "sbc-reviews")
	r.Host.Model = "Raspberry Pi 5 Model B Rev 1.0"
	r.Device.Class = probe.ClassNVMe
	r.SD = nil
	pub := loadPublished(t)
	ps := Peers(r, pub)
	found := false
	for _, f := range publishedFigures(r, ps) {
		if f.col.column != "iozone_seq1m_read_mbps" {
			continue
		}
		for _, d := range f.drives {
			printed, _ := d.row.FigureIn(f.col.column)
			want := *printed.Value
			if d.row.IozoneKBDivisor == "1024" {
				want *= 1.048576
				found = true
			}
			if d.value != want {
				t.Errorf("row %d: %v, want %v", d.row.Row, d.value, want)
			}
		}
	}
	if !found {
		t.Fatal("no Pi 5 NVMe row with iozone_kb_divisor 1024: the test needs one")
	}
	c := Build(r, nil, pub)
	for _, p := range c.Published {
		if p.Column == "iozone_seq1m_read_mbps" && !strings.Contains(p.Note, "converted to MB/s (×1.048576)") {
			t.Errorf("note does not say rows were converted: %q", p.Note)
		}
	}
}
