package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/record"
)

func TestNetworkCopy(t *testing.T) {
	c := func(v float64) *float64 { return &v }
	local := 95.0
	run := &record.Run{Tests: []record.Test{{Name: "network-copy", DurationS: 90,
		Sustained: &record.Sustained{CliffFound: true, CliffAtS: 40, CliffAtBytes: 4e9, BeforeMBPerS: 100, AfterMBPerS: 30, DropPct: 70, ThermalSuspect: true},
		Network: &record.Network{ReceivedBytes: 10e9, MBPerS: 111, DriveMBPerS: 60, Limit: "drive", NetworkWaitPct: 80, Ended: "complete",
			LocalSustainedMBPerS: &local, LocalRunID: "0198a7c2-0000-7000-8000-00000000a001"}}},
		Sensors: []record.SensorSample{{Test: "network-copy", DriveTempC: c(41)}, {Test: "network-copy", DriveTempC: c(63)}, {Test: "network-copy", DriveTempC: c(61)}, {Test: "", DriveTempC: c(30)}}}
	var b bytes.Buffer
	if err := NetworkCopy(&b, run); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"10.00 GB received in 90.0 s (complete)", "network 111.0 MB/s, drive 60.0 MB/s", "the drive was the limit",
		"cliff after 40 s (4.00 GB): 100.0 → 30.0 MB/s (−70%), as the drive heated up",
		"drive temperature: 41 °C at the start, 63 °C at most, 61 °C at the end (3 samples)", "(run 00000000a001): 95.0 MB/s", "63% of it"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
	// The terminal summary (iomark sink, iomark show) carries it after the table, before the
	// findings and the line naming the run.
	b.Reset()
	run.ID, run.Profile = "0198a7c2-0000-7000-8000-00000000b002", "network-copy"
	if err := Terminal(&b, run, TermOptions{Saved: &Saved{Where: "/tmp/r.db", ShortID: "00000000b002"}}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if at, findings, runLine := strings.Index(out, "network copy: 10.00 GB"), strings.Index(out, "findings:"), strings.Index(out, "run 0198a7c2"); at < 0 || findings < at || runLine < findings {
		t.Errorf("network copy at %d, findings at %d, run line at %d:\n%s", at, findings, runLine, out)
	}
	b.Reset()
	NetworkCopy(&b, &record.Run{Tests: []record.Test{{Name: "seq-write-1m"}}})
	if b.Len() != 0 {
		t.Errorf("a run without a copy printed %q", b.String())
	}
}
