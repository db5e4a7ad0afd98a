package sdreg

import (
	"fmt"
	"time"
)

// knownOEM lists manufacturer ids whose genuine cards, in every public dump we found, carry
// one OEM id. A card with such a MID and another OID is a classic counterfeit signature
// (cheap controllers copy the MID but not the OID). Only pairs seen documented are listed.
var knownOEM = map[uint8]string{
	0x03: "SD", // SanDisk: kernel quirks.h matches CID_MANFID_SANDISK_SD with OEM 0x5344; p2cat SN64G; sysfs dump SN512
	0x1b: "SM", // Samsung: p2cat GD4QT; usbsdmux dump GF8S5
	0x02: "TM", // Toshiba/Kioxia: usbsdmux dump SA04G; litesdcard log SA16G; NuttX#2276 log (SA08G)
}

// nominalGB are the marketed capacities (10^9 bytes) of SD cards. A genuine card reports
// close to its nominal size: most a little less (spare blocks), some a little more (the
// Samsung cards above report 128.04 GB and 512.71 GB).
var nominalGB = []float64{
	0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1, 2, 4, 8, 16, 32, 64, 128, 200, 256,
	400, 512, 1000, 1024, 1500, 2000,
}

// Suspect applies counterfeit heuristics to a card's CID and CSD and returns true with one
// short reason per hit. A hit is a hint, not proof: only writing the card full and reading it
// back proves its capacity.
func Suspect(cid CID, csd CSD) (bool, []string) {
	return SuspectAt(cid, csd, time.Now())
}

// clockFloor is a date every correct clock is past (iomark did not exist before it). A board
// without a real-time clock boots at 1970 and keeps that until NTP answers (a Raspberry Pi
// on its first boot, QEMU's raspi3b): such a clock cannot say a date is in the future.
var clockFloor = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// SuspectAt is Suspect with the current time given, so dates are judged reproducibly. A time
// before clockFloor (an unset clock) skips the "in the future" check.
func SuspectAt(cid CID, csd CSD, now time.Time) (bool, []string) {
	var reasons []string
	add := func(format string, args ...any) { reasons = append(reasons, fmt.Sprintf(format, args...)) }

	if cid.ManufacturerID == 0x00 {
		add("manufacturer id 0x00 is not assigned to any card maker")
	}
	if cid.OEMIDRaw == 0x0000 || cid.OEMIDRaw == 0xffff {
		add("OEM id 0x%04x is blank", cid.OEMIDRaw)
	} else if !isPrintableASCII([]byte{byte(cid.OEMIDRaw >> 8), byte(cid.OEMIDRaw)}) {
		add("OEM id 0x%04x is not two ASCII characters", cid.OEMIDRaw)
	}
	if want, ok := knownOEM[cid.ManufacturerID]; ok && cid.OEMID != want && cid.OEMIDRaw != 0 {
		name, _ := Manufacturer(cid.ManufacturerID)
		add("manufacturer id 0x%02x (%s) always comes with OEM id %q, this card has %q", cid.ManufacturerID, name, want, cid.OEMID)
	}
	if !isPrintableASCII(cid.NameRaw[:]) {
		add("product name is not ASCII text")
	}

	if cid.Month < 1 || cid.Month > 12 {
		add("manufacture month %d is not a month", cid.Month)
	}
	made := time.Date(cid.Year, time.Month(max(cid.Month, 1)), 1, 0, 0, 0, 0, time.UTC)
	if !now.Before(clockFloor) && made.After(now) {
		add("manufacture date %s is in the future", cid.Date)
	}
	// SDHC (CSD v2) arrived with SD 2.00 in 2006: a v2 card dated earlier, or any card dated
	// with a zero year field (2000), has a made-up date.
	if cid.Year == 2000 {
		add("manufacture year field is 0 (2000), which genuine cards do not use")
	} else if csd.Structure >= CSDv2 && cid.Year < 2006 {
		add("manufacture year %d predates SDHC (2006) but the card is %s", cid.Year, csd.Class)
	}

	if r := serialPattern(cid.Serial); r != "" {
		add("serial number 0x%08x %s", cid.Serial, r)
	}

	if r := capacityMismatch(csd); r != "" {
		reasons = append(reasons, r)
	}
	return len(reasons) > 0, reasons
}

// serialPattern says why a serial looks made up, or "" if it does not.
func serialPattern(s uint32) string {
	b := [4]byte{byte(s >> 24), byte(s >> 16), byte(s >> 8), byte(s)}
	switch {
	case s == 0:
		return "is zero"
	case s == 0xffffffff:
		return "is all ones"
	case b[0] == b[1] && b[1] == b[2] && b[2] == b[3]:
		return "repeats one byte"
	}
	// Runs of hex digits counting up or down (0x12345678, 0x01234567, 0x87654321) and bytes
	// counting up or down (0x01020304).
	up, down := true, true
	for i := 28; i > 0; i -= 4 {
		a, c := (s>>uint(i))&0xf, (s>>uint(i-4))&0xf
		up = up && c == a+1
		down = down && a == c+1
	}
	if up || down {
		return "is a run of consecutive digits"
	}
	up, down = true, true
	for i := 0; i < 3; i++ {
		up = up && b[i+1] == b[i]+1
		down = down && b[i] == b[i+1]+1
	}
	if up || down {
		return "is a run of consecutive bytes"
	}
	return ""
}

// capacityMismatch checks the CSD capacity against the capacity class and against the sizes
// cards are sold in: genuine cards report 90-102% of a nominal size, while a card claiming a
// power-of-two GiB (34.36 GB for "32 GB") or an odd size falls outside every window.
func capacityMismatch(csd CSD) string {
	if csd.CapacityBytes == 0 {
		return ""
	}
	gb := float64(csd.CapacityBytes) / 1e9
	switch csd.Structure {
	case CSDv1:
		// SDSC tops out at 2 GB (4 GB with the non-standard 2048-byte block length).
		if csd.CapacityBytes > 4<<30 {
			return fmt.Sprintf("capacity %.1f GB is impossible for a standard-capacity (CSD v1) card", gb)
		}
	case CSDv2:
		// Spec 5.3.3: SDHC C_SIZE 0x001010-0x00FF5F, SDXC 0x00FFFF-0x3FFEFF.
		if csd.CSize < 0x1010 || csd.CSize > 0x3ffeff || (csd.CSize > 0xff5f && csd.CSize < 0xffff) {
			return fmt.Sprintf("C_SIZE 0x%06x is outside the SDHC/SDXC range of the SD specification", csd.CSize)
		}
	}
	for _, n := range nominalGB {
		if gb >= 0.90*n && gb <= 1.02*n {
			return ""
		}
	}
	return fmt.Sprintf("capacity %.2f GB does not match any size SD cards are sold in", gb)
}
