package main

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestClassLimitsAndVerdicts(t *testing.T) {
	sd, ssd := driveClasses[0], driveClasses[2]
	if got := sd.limit(record.Test{Op: "write", BS: 1 << 20, Primary: "mb_per_s"}); got != 20 {
		t.Errorf("microSD sequential write limit %v, want 20 MB/s", got)
	}
	// 4 KiB at 20000 IOPS is 82 MB/s, under the 350 MB/s read limit: IOPS bind.
	if got := ssd.limit(record.Test{Op: "randread", BS: 4096, Primary: "iops"}); got != 20000 {
		t.Errorf("USB SSD random read limit %v, want 20000 IOPS", got)
	}
	for _, c := range []struct {
		name  string
		class driveClass
		row   classRow
		ok    bool
		why   string
	}{
		{"card within 1%", sd, classRow{Test: "seq-write-1m", Limit: 20, Iomark: 19.92, Fio: []float64{19.9}}, true, ""},
		{"card 2% off", sd, classRow{Test: "seq-write-1m", Limit: 20, Iomark: 20.45, Fio: []float64{20.4}}, false, "bound ±1%"},
		{"SSD off where fio is on", ssd, classRow{Test: "seq-write-1m", Limit: 300, Iomark: 324, Fio: []float64{300, 301}}, false, "where fio is"},
		{"SSD off where fio is off too", ssd, classRow{Test: "rand-read-4k-qd1", Limit: 20000, Iomark: 15000, Fio: []float64{15100}}, true, "fio is"},
		{"interval wider than 10% and fio's spread", ssd, classRow{Test: "rand-write-4k-qd32", Limit: 15000, Iomark: 15000, IomarkCI95Pct: 82, Fio: []float64{15000, 14900}}, false, "interval"},
		{"interval within fio's own spread", ssd, classRow{Test: "rand-write-4k-qd1", Limit: 15000, Iomark: 15000, IomarkCI95Pct: 12, Fio: []float64{12000, 15000, 18000}}, true, ""},
	} {
		ok, why := c.row.verdict(c.class)
		if ok != c.ok || !strings.Contains(why, c.why) {
			t.Errorf("%s: %v %q, want %v and %q", c.name, ok, why, c.ok, c.why)
		}
	}
}
