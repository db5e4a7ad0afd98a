package health

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strings"
)

// ataAnswers are the sectors a drive returned: IDENTIFY DEVICE, SMART READ DATA, SMART READ
// ATTRIBUTE THRESHOLDS and the SCT status log (nil when not read).
type ataAnswers struct {
	identify, data, thresholds, sct []byte
}

// ataIdentity is what the health reading needs from IDENTIFY DEVICE (ACS-3, 7.12.7).
type ataIdentity struct {
	smartSupported, smartEnabled, sct, ssd bool
	logicalSectorBytes                     uint64
}

func decodeIdentify(b []byte) (ataIdentity, error) {
	if len(b) < 512 || allZero(b[:512]) {
		return ataIdentity{}, errors.New("no IDENTIFY DEVICE answer")
	}
	word := func(n int) uint16 { return binary.LittleEndian.Uint16(b[2*n:]) }
	valid := func(w uint16) bool { return w&0xc000 == 0x4000 } // bits 15:14 = 01b: the word is valid
	id := ataIdentity{logicalSectorBytes: 512}
	if w := word(82); valid(word(83)) && w != 0xffff {
		id.smartSupported = w&1 != 0
	}
	if w := word(85); valid(word(87)) && w != 0xffff {
		id.smartEnabled = w&1 != 0
	}
	id.sct = word(206)&1 != 0 && word(206) != 0xffff
	id.ssd = word(217) == 1
	// Word 106 bit 12: the logical sector is longer than 256 words; words 117-118 give it.
	if w := word(106); valid(w) && w&(1<<12) != 0 {
		words := uint64(word(117)) | uint64(word(118))<<16
		if words >= 256 && words <= 1<<15 {
			id.logicalSectorBytes = words * 2
		}
	}
	return id, nil
}

// smartChecksumOK: the last byte makes the 512-byte sum zero (ATA8-ACS 7.53.6.1).
func smartChecksumOK(b []byte) bool {
	var sum byte
	for _, c := range b[:512] {
		sum += c
	}
	return sum == 0
}

// decodeATA reads the SMART attributes (SFF-8035i / ATA8-ACS: 30 entries of 12 bytes from
// byte 2: id, flags (2), normalized value, worst, raw (6), reserved), their thresholds (30
// entries of 12 bytes from byte 2: id, threshold) and the SCT status temperature, and gives
// them meaning through the family table of model.
func decodeATA(a ataAnswers, model string) (*Health, error) {
	if len(a.data) < 512 || allZero(a.data[:512]) {
		return nil, errors.New("the drive returned no SMART data (the bridge may not pass the command)")
	}
	id, idErr := decodeIdentify(a.identify)
	if idErr != nil {
		id.logicalSectorBytes = 512
	}
	h := &Health{Source: SourceATA}
	var notes []string
	if !smartChecksumOK(a.data) {
		notes = append(notes, "the SMART data checksum is wrong (read anyway, as smartctl does)")
	}
	thresholds := ataThresholds(a.thresholds)
	f := familyOf(model)
	if f != nil {
		h.Family = f.name
	}
	h.CriticalWarnings = []string{}
	var rd ataReadings
	seen := map[int]bool{}
	for i := 0; i < 30; i++ {
		e := a.data[2+12*i : 2+12*i+12]
		attrID := int(e[0])
		if attrID == 0 || seen[attrID] {
			continue
		}
		seen[attrID] = true
		def, known := defFor(f, id.ssd, attrID)
		at := ataAttribute(e, def, known, thresholds)
		if at.Failing {
			h.CriticalWarnings = append(h.CriticalWarnings, "attribute-failing:"+at.Name)
		}
		h.Attributes = append(h.Attributes, at)
		if known {
			rd.take(h, at, def, id.logicalSectorBytes)
		}
	}
	rd.setOn(h)
	// The SCT status temperature is the drive's current one (ACS-4 Table 194, byte 200).
	if c, ok := decodeSCTTemp(a.sct); ok {
		h.TemperatureC = &c
	}
	switch {
	case idErr != nil:
		notes = append(notes, "IDENTIFY DEVICE was not read: LBA counters assume 512-byte sectors")
	case id.smartSupported && !id.smartEnabled:
		notes = append(notes, "SMART is disabled on this drive (iomark never enables it; smartctl -s on does)")
	}
	if f == nil && model != "" {
		notes = append(notes, fmt.Sprintf("%q is in no family of iomark's attribute table: standard meanings assumed", model))
	}
	h.Note = strings.Join(notes, "; ")
	return h, nil
}

// ataThresholds reads SMART READ THRESHOLDS: attribute id to threshold, empty when the
// drive returned none.
func ataThresholds(b []byte) map[int]int {
	thresholds := map[int]int{}
	if len(b) >= 512 && !allZero(b[:512]) {
		for i := 0; i < 30; i++ {
			e := b[2+12*i:]
			if e[0] != 0 {
				thresholds[int(e[0])] = int(e[1])
			}
		}
	}
	return thresholds
}

// ataAttribute decodes one 12-byte entry of the SMART data, named by def when known, with its
// threshold when the drive gave one.
func ataAttribute(e []byte, def attrDef, known bool, thresholds map[int]int) Attribute {
	attrID := int(e[0])
	flags := binary.LittleEndian.Uint16(e[1:3])
	raw := uint64(e[5]) | uint64(e[6])<<8 | uint64(e[7])<<16 | uint64(e[8])<<24 | uint64(e[9])<<32 | uint64(e[10])<<40
	at := Attribute{ID: attrID, Value: int(e[3]), Worst: int(e[4]), Raw: raw, PreFail: flags&1 != 0}
	if known && def.name != "" {
		at.Name = def.name
	} else {
		at.Name = "Unknown_Attribute"
	}
	if t, ok := thresholds[attrID]; ok {
		at.Threshold = ptr(t)
		// A pre-fail attribute at or below its threshold is the drive predicting its
		// failure (SFF-8035i; smartctl's "FAILING_NOW"). Threshold 0 never trips, and
		// value 0 or above 0xfd are reserved.
		if at.PreFail && t > 0 && at.Value <= t && at.Value >= 1 && at.Value <= 0xfd {
			at.Failing = true
		}
	}
	return at
}

// ataReadings are the attribute values that decodeATA can only place once all attributes are
// read: a figure two attributes may give comes from the preferred one.
type ataReadings struct {
	reallocated, pending, powerCycles  *uint64
	uncorrectable187, uncorrectable198 *uint64
	written, read                      *uint64
	temp194, temp190                   *float64
}

// take reads attribute at by what def says it means: into h where one attribute decides,
// into rd where the figure waits for the others.
func (rd *ataReadings) take(h *Health, at Attribute, def attrDef, sectorBytes uint64) {
	v := at.Raw
	if def.rawMask != 0 {
		v &= def.rawMask
	}
	switch def.meaning {
	case mPowerOnHours:
		h.PowerOnHours = ptr(v)
	case mPowerCycles:
		rd.powerCycles = ptr(v)
	case mTemperature:
		if c := int8(v & 0xff); c > -40 && c < 125 && c != 0 {
			t := float64(c)
			if at.ID == 194 {
				rd.temp194 = &t
			} else {
				rd.temp190 = &t
			}
		}
	case mReallocated:
		rd.reallocated = ptr(v)
	case mPending:
		rd.pending = ptr(v)
	case mUncorrectable:
		if at.ID == 198 {
			rd.uncorrectable198 = ptr(v)
		} else {
			rd.uncorrectable187 = ptr(v)
		}
	case mWritten:
		rd.written = ptr(scaleBytes(v, def.unitBytes, sectorBytes))
	case mRead:
		rd.read = ptr(scaleBytes(v, def.unitBytes, sectorBytes))
	case mLifeLeftValue:
		if at.Value >= 1 && at.Value <= 100 {
			h.PercentageUsed = ptr(100 - at.Value)
			h.PercentageUsedBasis = fmt.Sprintf("ATA attribute %d %s (normalized value %d = life left)", at.ID, def.name, at.Value)
		}
	case mLifeUsedRaw:
		if v <= 255 {
			h.PercentageUsed = ptr(int(v))
			h.PercentageUsedBasis = fmt.Sprintf("ATA attribute %d %s (raw = percent of life used)", at.ID, def.name)
		}
	}
}

// setOn gives h the figures rd gathered.
func (rd *ataReadings) setOn(h *Health) {
	h.ReallocatedSectors, h.PendingSectors, h.PowerCycles = rd.reallocated, rd.pending, rd.powerCycles
	h.DataWrittenBytes, h.DataReadBytes = rd.written, rd.read
	// Reported uncorrectable errors (187) are the closest to NVMe's media errors; offline
	// uncorrectable sectors (198) stand in where 187 is not reported.
	h.MediaErrors = rd.uncorrectable187
	if h.MediaErrors == nil {
		h.MediaErrors = rd.uncorrectable198
	}
	h.TemperatureC = rd.temp194
	if h.TemperatureC == nil {
		h.TemperatureC = rd.temp190
	}
}

// decodeSCTTemp reads the current temperature of an SCT status response: format version 2 or
// 3 (bytes 0-1), temperature byte 200 signed, 0x80 invalid.
func decodeSCTTemp(b []byte) (float64, bool) {
	if len(b) < 512 {
		return 0, false
	}
	if v := binary.LittleEndian.Uint16(b[0:2]); v != 2 && v != 3 {
		return 0, false
	}
	c := int8(b[200])
	if b[200] == 0x80 || c < -40 || c > 125 {
		return 0, false
	}
	return float64(c), true
}

// scaleBytes turns a count into bytes: unitBytes per count, or the logical sector size when
// unitBytes is 0 (LBA counters). Saturates instead of wrapping.
func scaleBytes(count, unitBytes, sectorBytes uint64) uint64 {
	u := unitBytes
	if u == 0 {
		u = sectorBytes
	}
	if u != 0 && count > math.MaxUint64/u {
		return math.MaxUint64
	}
	return count * u
}
