package record

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

func sampleRun(t *testing.T) *Run {
	id, err := NewID()
	if err != nil {
		t.Fatal(err)
	}
	pib := 8905
	return &Run{SchemaVersion: SchemaVersion, ID: id, CreatedAt: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC),
		ToolVersion: "test", Profile: "quick",
		Host:   &Board{Model: "Raspberry Pi 4 Model B Rev 1.4", Revision: "c03114"},
		Device: &Device{Name: "mmcblk0", Class: "microsd", Vendor: "SanDisk", Model: "SN64G", CapacityBytes: 63864569856},
		SD:     &SD{ManfID: 3, OEMID: "SD", Name: "SN64G"},
		Link:   []Hop{{Bus: "sd", SpeedMbps: 400}},
		Tests: []Test{{Name: "rand-read-4k-qd1", Op: "randread", BS: 4096, QD: 1, Jobs: 1, IOPS: 2600, MBPerS: 10.65,
			Primary: "iops", LatUS: Latency{P50: 380, P99: 900, Max: 2000}, CI95Pct: 1.2, Runs: 3}},
		Scores: Scores{Pibenchmarks: &pib}}
}

func TestDeviceKey(t *testing.T) {
	r := sampleRun(t)
	if got := r.DeviceKey(); got != "sd:03:sd:sn64g" {
		t.Errorf("SD key = %q", got)
	}
	r.SD = nil
	r.USB = &USB{VID: "174c", PID: "55aa", SCSIModel: "ASM1153E", Drive: &ATAIdentity{Model: "Samsung SSD 870 EVO 500GB"}}
	if got := r.DeviceKey(); got != "usb:174c:55aa:samsung ssd 870 evo 500gb" {
		t.Errorf("USB key = %q: want the drive behind the bridge", got)
	}
	r.USB = nil
	r.Device = &Device{Name: "loop3", Class: "loop", CapacityBytes: 1073741824}
	if got := r.DeviceKey(); got != "loop:unidentified:1gb" {
		t.Errorf("unidentified drive key = %q, want it grouped as reported", got)
	}
	r.Device = nil
	if got := r.DeviceKey(); got != "" {
		t.Errorf("key of a run that says nothing = %q, want empty", got)
	}
}

func TestDecodeRefusesNewerSchema(t *testing.T) {
	if _, err := Decode([]byte(`{"schema_version": 99}`)); err == nil || !strings.Contains(err.Error(), "upgrade") {
		t.Errorf("err = %v", err)
	}
	if _, err := Decode([]byte(`[1]`)); err == nil {
		t.Error("an array decoded as a record")
	}
}

// TestWarningsOfEitherSchema: schema 2 writes warnings as {code, message}; a schema 1 record's
// bare sentences still decode, with an empty code.
func TestWarningsOfEitherSchema(t *testing.T) {
	old, err := Decode([]byte(`{"schema_version": 1, "id": "r1", "warnings": ["seq-read-1m: measured once"]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Warnings) != 1 || old.Warnings[0] != (Warning{Message: "seq-read-1m: measured once"}) {
		t.Errorf("schema 1 warnings = %+v", old.Warnings)
	}
	r := sampleRun(t)
	r.Warnings = []Warning{{Code: "few-runs", Message: "seq-read-1m: measured 2 times (wanted at least 3)"}}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"warnings":[{"code":"few-runs","message":"seq-read-1m: measured 2 times (wanted at least 3)"}]`) {
		t.Errorf("warnings encode as %s", raw)
	}
	back, err := Decode(raw)
	if err != nil || len(back.Warnings) != 1 || back.Warnings[0] != r.Warnings[0] {
		t.Errorf("round trip: %+v, %v", back.Warnings, err)
	}
	for _, bad := range []string{`{"schema_version": 2, "warnings": [1]}`, `{"schema_version": 2, "warnings": [{"code": 3}]}`} {
		if _, err := Decode([]byte(bad)); err == nil {
			t.Errorf("%s decoded", bad)
		}
	}
}

func TestUnitKey(t *testing.T) {
	sd := func(serial string, size uint64) *Run {
		return &Run{SD: &SD{ManfID: 0x1b, OEMID: "SM", Name: "EC1S5", SerialHash: serial},
			Device: &Device{Class: "microsd", CapacityBytes: size}}
	}
	a, b, c := sd("aaaa", 64e9).UnitKey(), sd("bbbb", 64e9).UnitKey(), sd("aaaa", 128e9).UnitKey()
	if a == b || a == c || a != sd("aaaa", 64e9).UnitKey() {
		t.Errorf("unit keys %q %q %q: want distinct per serial and size, stable per unit", a, b, c)
	}
	if !strings.HasPrefix(a, sd("aaaa", 64e9).DeviceKey()+"|") {
		t.Errorf("unit key %q does not start with the device key", a)
	}
	if (&Run{}).UnitKey() != "" {
		t.Error("a run without a device has a unit key")
	}
}
