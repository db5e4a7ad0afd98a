package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/compare/comparetest"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

func earlierRuns() []*record.Run { return comparetest.EarlierRuns() }

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
