package health

import (
	"math"
	"slices"
	"testing"
)

func TestNVMeFixtures(t *testing.T) {
	h, err := decodeNVMeLog(loadHex(t, "nvme/checkbox-102.hex"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"used": 0, "spare": 100, "spare threshold": 10,
		"hours": 6726, "cycles": 3693, "unsafe": 3682, "media": 0,
		"written": 64768925 * 512000, "read": 19683018 * 512000,
	}
	got := map[string]int64{
		"used": int64(intOr(h.PercentageUsed)), "spare": int64(intOr(h.AvailableSparePct)),
		"spare threshold": int64(intOr(h.AvailableSpareThresholdPct)),
		"hours":           u64(h.PowerOnHours), "cycles": u64(h.PowerCycles), "unsafe": u64(h.UnsafeShutdowns),
		"media": u64(h.MediaErrors), "written": u64(h.DataWrittenBytes), "read": u64(h.DataReadBytes),
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %d, want %d", k, got[k], v)
		}
	}
	if h.TemperatureC == nil || *h.TemperatureC != 30 {
		t.Errorf("temperature = %v", h.TemperatureC)
	}
	if h.CriticalWarnings == nil || len(h.CriticalWarnings) != 0 {
		t.Errorf("critical warnings = %#v, want present and empty", h.CriticalWarnings)
	}

	h, err = decodeNVMeLog(loadHex(t, "nvme/smartmontools-537.hex"))
	if err != nil {
		t.Fatal(err)
	}
	if intOr(h.PercentageUsed) != 100 || !slices.Equal(h.CriticalWarnings, []string{"reliability-degraded"}) {
		t.Errorf("537: used %d, warnings %v", intOr(h.PercentageUsed), h.CriticalWarnings)
	}
	if h.TemperatureC == nil || *h.TemperatureC != 28 {
		t.Errorf("537: temperature %v", h.TemperatureC)
	}
}

func TestNVMeEdges(t *testing.T) {
	if _, err := decodeNVMeLog(make([]byte, 512)); err == nil {
		t.Error("an empty log decoded")
	}
	if _, err := decodeNVMeLog(make([]byte, 100)); err == nil {
		t.Error("a short log decoded")
	}
	b := make([]byte, 512)
	b[0] = 0x3f
	b[48+8] = 1                     // data units written beyond 64 bits saturate
	b[1], b[2] = 0xff, 0xff         // an impossible temperature is left out
	b[3], b[4], b[5] = 200, 10, 255 // spare above 100% is left out; used may exceed 100
	h, err := decodeNVMeLog(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(h.CriticalWarnings) != 6 || h.TemperatureC != nil || h.AvailableSparePct != nil || intOr(h.PercentageUsed) != 255 {
		t.Errorf("edges: %+v", h)
	}
	if u64(h.DataWrittenBytes) != -1 && *h.DataWrittenBytes != math.MaxUint64 {
		t.Errorf("written = %d, want saturated", *h.DataWrittenBytes)
	}
}
