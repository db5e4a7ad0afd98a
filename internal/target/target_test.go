package target

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/store"
)

func fixture(name string) probe.Options {
	return probe.Options{Root: filepath.Join("..", "probe", "testdata", name), NoIoctl: true}
}

func TestGatherAndDriveFindings(t *testing.T) {
	f, err := Gather("/home/pi", Options{Probe: fixture("pi4-usb3-ssd-in-usb2-port"), Health: true})
	if err != nil {
		t.Fatal(err)
	}
	if f.Report == nil || f.Report.Device == nil || f.Report.Device.Name != "sda" {
		t.Fatalf("report = %+v", f.Report)
	}
	if dk, uk := Keys(f.Report); dk == "" || uk == "" {
		t.Errorf("keys = %q, %q", dk, uk)
	}
	fs := f.Findings(context.Background(), nil)
	if len(fs) != 1 || fs[0].ID != "usb-port-usb2" {
		t.Errorf("findings = %+v", fs)
	}
}

func TestFindingsNeverNilWithoutRun(t *testing.T) {
	f, err := Gather("/", Options{Probe: fixture("pi5-nvme-gen3")})
	if err != nil {
		t.Fatal(err)
	}
	if fs := f.Findings(context.Background(), nil); fs == nil || len(fs) != 0 {
		t.Errorf("findings = %#v, want empty and not nil", fs)
	}
}

func TestGatherUnidentified(t *testing.T) {
	f, err := Gather("/dev/nosuch", Options{Probe: fixture("pi5-nvme-gen3"), Health: true})
	if err == nil {
		t.Fatal("no error for a device that does not exist")
	}
	if f == nil || f.Report != nil || f.Health != nil {
		t.Fatalf("facts = %+v, want facts with no report", f)
	}
	if dk, uk := Keys(f.Report); dk != "" || uk != "" {
		t.Errorf("keys of nothing = %q, %q", dk, uk)
	}
}

func TestRunFindingsWorstFirst(t *testing.T) {
	f, err := Gather("/", Options{Probe: fixture("pi5-nvme-gen3"),
		Verifies: func(context.Context) (*store.Store, error) { return nil, errors.New("unreadable") }})
	if err != nil {
		t.Fatal(err)
	}
	rec := &record.Run{Findings: []record.Finding{
		{ID: "a", Severity: record.SeverityInfo}, {ID: "b", Severity: record.SeverityBad}, {ID: "c", Severity: record.SeverityInfo}}}
	var ids []string
	for _, x := range f.Findings(context.Background(), rec) {
		ids = append(ids, x.ID)
	}
	if len(ids) != 3 || ids[0] != "b" || ids[1] != "a" || ids[2] != "c" {
		t.Errorf("findings = %v, want worst first, in order within a severity", ids)
	}
}

func TestSensorsMeterAndReadings(t *testing.T) {
	f := &Facts{}
	s := f.Sensors(SensorOptions{MeterWatts: 6.4})
	if s.Power == nil || s.Power.MeterWatts == nil || *s.Power.MeterWatts != 6.4 {
		t.Fatalf("power = %+v", s.Power)
	}
	if s.Sample != nil || s.DriveTemp != nil {
		t.Errorf("a meter reading alone is not sampled: %+v", s)
	}
	c := 47.0
	s = f.Sensors(SensorOptions{MeterWatts: 6.4, Readings: &Readings{Source: "typed", Sensor: "typed", Take: func() *float64 { return &c }}})
	if s.DriveTemp == nil || s.DriveTemp.Source != "typed" || s.Sample == nil {
		t.Fatalf("sensors = %+v", s)
	}
	if got := s.Sample(); got.DriveTempC == nil || *got.DriveTempC != 47 || got.PowerW != nil {
		t.Errorf("sample = %+v", got)
	}
}
