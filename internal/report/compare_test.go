package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// earlierRuns are SYNTHETIC earlier runs of the sample's card, plus one of another card.
func earlierRuns() []*record.Run {
	a, b, other := sampleRun(), sampleRun(), sampleRun()
	a.ID, a.CreatedAt = "019a0000-0000-7000-8000-00000000000a", time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)
	b.ID, b.CreatedAt = "019a0000-0000-7000-8000-00000000000b", time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
	for i := range a.Tests {
		a.Tests[i].IOPS *= 0.9
		a.Tests[i].MBPerS *= 0.9
		b.Tests[i].IOPS *= 1.1
		b.Tests[i].MBPerS *= 1.1
	}
	other.ID = "019a0000-0000-7000-8000-00000000000c"
	other.SD = &probe.SD{ManfID: 0x1b, OEMID: "SM", Name: "EB1QT"}
	other.Tests[0].MBPerS = 999
	return []*record.Run{b, other, a, sampleRun()} // the run itself is skipped by id
}

func TestCompareGolden(t *testing.T) {
	pub, _ := refdata.Load()
	var buf bytes.Buffer
	if err := Compare(&buf, sampleRun(), earlierRuns(), pub, CompareOptions{}); err != nil {
		t.Fatal(err)
	}
	golden(t, "quick.compare.golden", buf.Bytes())
}

func TestCompareNotesUnlikeEarlierRuns(t *testing.T) {
	earlier := earlierRuns()
	earlier[0].Host.Model = "Raspberry Pi 5 Model B Rev 1.0"
	var buf bytes.Buffer
	if err := Compare(&buf, sampleRun(), earlier, nil, CompareOptions{Markdown: true}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "unlike this run: 019a0000-0000-7000-8000-00000000000b (2026-11-01): board Raspberry Pi 5 Model B Rev 1.0") {
		t.Errorf("earlier run on another board not pointed out:\n%s", out)
	}
	if !strings.Contains(out, "| test | this run | rank | ratio |\n|---|---|---|---|\n") {
		t.Errorf("Markdown option did not give a Markdown table:\n%s", out)
	}
	if !strings.Contains(out, "no published results for Pi 4, microsd") {
		t.Errorf("empty published side not explained:\n%s", out)
	}
}

// Where a USB SSD run stands (Pi 4, USB 5 Gbps: ranked by score, so its sequential figures sit
// beside published USB SSDs), and what a run with nothing comparable is told.
func TestCompareStandingGolden(t *testing.T) {
	pub, _ := refdata.Load()
	ssd := sampleRun()
	ssd.SD = nil
	ssd.Device = &probe.Device{Name: "sda", Path: "/dev/sda", Class: probe.ClassUSBSSD, Vendor: "Samsung", Model: "Portable SSD T7", CapacityBytes: 500107862016}
	ssd.Link = []probe.Hop{{Bus: "usb", Name: "2-1", SpeedMbps: 5000, Driver: "uas"}}
	for i := range ssd.Tests {
		ssd.Tests[i].MBPerS *= 8
		ssd.Tests[i].IOPS *= 8
	}
	loop := sampleRun()
	loop.SD = nil
	loop.Device = &probe.Device{Name: "loop0", Path: "/dev/loop0", Class: probe.ClassLoop, CapacityBytes: 1 << 30}
	loop.Link = []probe.Hop{{Bus: "loop", Name: "loop0"}}
	for name, r := range map[string]*record.Run{"usb-ssd.compare.golden": ssd, "loop.compare.golden": loop} {
		var buf bytes.Buffer
		if err := Compare(&buf, r, nil, pub, CompareOptions{}); err != nil {
			t.Fatal(err)
		}
		golden(t, name, buf.Bytes())
	}
}
