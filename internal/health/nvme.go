package health

import (
	"encoding/binary"
	"errors"
	"math"
)

// nvmeLogBytes is the size of the SMART / Health Information log page (NVM Express Base
// Specification 2.0, section 5.16.1.3, Figure 207).
const nvmeLogBytes = 512

// nvmeDataUnitBytes: a data unit is one thousand 512-byte units (NVMe 2.0, Figure 207: "Data
// Units Read ... reported in thousands (i.e., a value of 1 corresponds to 1,000 units of 512
// bytes)").
const nvmeDataUnitBytes = 512 * 1000

// nvmeWarningBits names the Critical Warning bits (NVMe 2.0, Figure 207, byte 0).
var nvmeWarningBits = []string{
	0: "spare-below-threshold",  // available spare below its threshold
	1: "temperature",            // a temperature above an over- or below an under-temperature threshold
	2: "reliability-degraded",   // media or internal errors degraded the NVM subsystem
	3: "read-only",              // the media was placed in read-only mode
	4: "volatile-backup-failed", // the volatile memory backup device failed
	5: "pmr-read-only",          // the persistent memory region became read-only
}

// decodeNVMeLog decodes the SMART / Health Information log page. Every field it sets is one
// the specification makes mandatory; a page of zeros (a device that filled nothing) is
// refused.
func decodeNVMeLog(b []byte) (*Health, error) {
	if len(b) < nvmeLogBytes {
		return nil, errors.New("short NVMe health log")
	}
	b = b[:nvmeLogBytes]
	if allZero(b) {
		return nil, errors.New("the drive returned an empty health log")
	}
	h := &Health{Source: SourceNVMe, PercentageUsedBasis: "NVMe Percentage Used"}
	h.CriticalWarnings = []string{}
	for bit, name := range nvmeWarningBits {
		if b[0]&(1<<bit) != 0 {
			h.CriticalWarnings = append(h.CriticalWarnings, name)
		}
	}
	// Composite temperature in kelvins; 0 means not reported. Values outside what any drive
	// survives (-100 °C to 200 °C) are not trusted.
	if k := binary.LittleEndian.Uint16(b[1:3]); k >= 173 && k <= 473 {
		c := float64(int(k) - 273)
		h.TemperatureC = &c
	}
	spare, spareThresh, used := int(b[3]), int(b[4]), int(b[5])
	if spare <= 100 {
		h.AvailableSparePct = &spare
	}
	if spareThresh <= 100 {
		h.AvailableSpareThresholdPct = &spareThresh
	}
	h.PercentageUsed = &used
	h.DataReadBytes = ptr(unitsToBytes(u128(b[32:48])))
	h.DataWrittenBytes = ptr(unitsToBytes(u128(b[48:64])))
	h.PowerCycles = ptr(u128(b[112:128]))
	h.PowerOnHours = ptr(u128(b[128:144]))
	h.UnsafeShutdowns = ptr(u128(b[144:160]))
	h.MediaErrors = ptr(u128(b[160:176]))
	return h, nil
}

// u128 reads a little-endian 128-bit counter, saturated at the largest uint64 (no drive
// counts that far; a corrupt page must not wrap).
func u128(b []byte) uint64 {
	if binary.LittleEndian.Uint64(b[8:16]) != 0 {
		return math.MaxUint64
	}
	return binary.LittleEndian.Uint64(b[0:8])
}

func unitsToBytes(units uint64) uint64 {
	if units > math.MaxUint64/nvmeDataUnitBytes {
		return math.MaxUint64
	}
	return units * nvmeDataUnitBytes
}

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

func ptr[T any](v T) *T { return &v }
