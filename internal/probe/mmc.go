package probe

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe/linkdb"
	"github.com/iomark/iomark/internal/probe/sdreg"
)

// readMMC describes an SD card or eMMC. cardDir is .../mmc_host/mmcN/mmcN:RCA; the platform
// device above mmc_host is the host controller.
func readMMC(o Options, cardDir string) (*SD, Hop, string) {
	hostDir := filepath.Dir(cardDir)               // mmc_host/mmcN
	ctrlDir := filepath.Dir(filepath.Dir(hostDir)) // fe340000.mmc
	sd := &SD{Type: readString(filepath.Join(cardDir, "type")), Host: filepath.Base(hostDir)}
	sd.HostDriver = linkBase(filepath.Join(ctrlDir, "driver"))
	cidHex := readString(filepath.Join(cardDir, "cid"))
	switch sd.Type {
	case "MMC":
		if cid, err := sdreg.DecodeMMCCID(cidHex); err == nil {
			sd.ManfID, sd.OEMID, sd.Name = int(cid.ManufacturerID), fmt.Sprintf("0x%02x", cid.OEMID), cid.Name
			sd.Revision, sd.Date, sd.SerialHash = cid.Revision, cid.Date, hashSerial(fmt.Sprint(cid.Serial))
			sd.Manufacturer, _ = sdreg.MMCManufacturer(cid.ManufacturerID)
		}
	default:
		cid, cidErr := sdreg.DecodeCID(cidHex)
		if cidErr == nil {
			sd.ManfID, sd.OEMID, sd.Name = int(cid.ManufacturerID), cid.OEMID, cid.Name
			sd.Revision, sd.Date, sd.SerialHash = cid.Revision, cid.Date, hashSerial(fmt.Sprint(cid.Serial))
			sd.Manufacturer, _ = sdreg.Manufacturer(cid.ManufacturerID)
		}
		csd, csdErr := sdreg.DecodeCSD(readString(filepath.Join(cardDir, "csd")))
		if csdErr == nil {
			sd.CapacityBytes = csd.CapacityBytes
			if csd.Structure == sdreg.CSDv1 && csd.WriteBlLen >= 9 && csd.WriteBlLen <= 11 {
				sd.EraseSectorBytes = uint64(csd.SectorSize) << uint(csd.WriteBlLen)
			}
		}
		if cidErr == nil && csdErr == nil {
			sd.Suspect, sd.SuspectReasons = sdreg.Suspect(cid, csd)
		}
		if ssr, err := sdreg.DecodeSSR(readString(filepath.Join(cardDir, "ssr"))); err == nil {
			sd.AUSizeBytes = ssr.AUSizeBytes
			sc, uc, vc, ac := ssr.SpeedClass, ssr.UHSClass, ssr.VideoClass, ssr.AppClass
			if sc >= 0 {
				sd.SpeedClass = &sc
			}
			if uc >= 0 {
				sd.UHSClass = &uc
			}
			if vc >= 0 {
				sd.VideoClass = &vc
			}
			if ac != "reserved" {
				sd.AppClass = &ac
			}
		}
		if scr, err := sdreg.DecodeSCR(readString(filepath.Join(cardDir, "scr"))); err == nil {
			sd.SpecVersion = scr.SpecVersion
		}
	}
	if pe, ok := readInt(filepath.Join(cardDir, "preferred_erase_size")); ok && pe > 0 {
		sd.PreferredEraseBytes = uint64(pe)
	}
	// The device tree says whether the host runs command queueing (Pi 5: dtparam sd_cqe).
	if exists(filepath.Join(ctrlDir, "of_node")) {
		cq := exists(filepath.Join(ctrlDir, "of_node", "supports-cqe"))
		sd.CommandQueue = &cq
	}

	bus := "sd"
	if sd.Type == "MMC" {
		bus = "mmc"
	}
	hop := Hop{Bus: bus, Name: sd.Host, Driver: sd.HostDriver}
	ios, err := readIOS(o.path("/sys/kernel/debug/" + sd.Host + "/ios"))
	if err == nil {
		sd.Timing, sd.ClockHz, sd.BusWidthBits = ios.timing, ios.clockHz, ios.busWidth
		hop.SpeedMbps = ios.mbps()
		hop.Detail = fmt.Sprintf("%s, %d-bit, %.0f MHz", ios.timing, ios.busWidth, float64(ios.clockHz)/1e6)
		c := linkdb.SD(ios.kernel, ios.clockHz, ios.busWidth)
		hop.CeilingMBPerS, hop.CeilingBasis, hop.CeilingSource = c.MBPerS, c.Basis, c.Source
	}
	note := ""
	if err != nil {
		note = "SD/MMC bus timing and clock need debugfs (" + o.unroot(o.path("/sys/kernel/debug")) + ", root): run as root for the link ceiling"
	}
	return sd, hop, note
}

// ios is the state printed by /sys/kernel/debug/mmcN/ios (drivers/mmc/core/debugfs.c).
type ios struct {
	clockHz  int    // "actual clock" when the host reports it, else the requested clock
	busWidth int    // bits
	timing   string // short bus mode name: DDR50, SDR104, HS200
	kernel   string // the kernel's name: "sd uhs DDR50"
}

// mbps is the raw bus rate: clock × width, doubled for DDR timings.
func (i ios) mbps() int {
	r := i.clockHz / 1e6 * i.busWidth
	if strings.Contains(i.timing, "DDR") || strings.Contains(i.timing, "HS400") {
		r *= 2
	}
	return r
}

// readIOS parses the ios file:
//
//	clock:          50000000 Hz
//	actual clock:   50000000 Hz
//	bus width:      2 (4 bits)
//	timing spec:    7 (sd uhs DDR50)
func readIOS(p string) (ios, error) {
	text := readString(p)
	if text == "" {
		return ios{}, fmt.Errorf("cannot read %s", p)
	}
	var r ios
	var clock, actual int
	for _, line := range strings.Split(text, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.TrimSpace(key) {
		case "clock":
			clock = leadingInt(val)
		case "actual clock":
			actual = leadingInt(val)
		case "bus width":
			if i := strings.Index(val, "("); i >= 0 {
				r.busWidth = leadingInt(val[i+1:])
			}
		case "timing spec":
			if i := strings.Index(val, "("); i >= 0 {
				r.kernel = strings.TrimSuffix(val[i+1:], ")")
				r.timing = timingName(r.kernel)
			}
		}
	}
	r.clockHz = clock
	if actual > 0 {
		r.clockHz = actual
	}
	if r.timing == "" || r.clockHz == 0 {
		return ios{}, fmt.Errorf("%s: no timing or clock", p)
	}
	return r, nil
}

// timingName shortens the kernel's timing names to the bus mode names the SD and JEDEC
// specifications use: "sd uhs DDR50" → "DDR50", "sd high-speed" → "HS", "mmc HS200" → "HS200".
func timingName(k string) string {
	switch k {
	case "legacy":
		return "DS"
	case "sd high-speed", "mmc high-speed":
		return "HS"
	}
	f := strings.Fields(k)
	if len(f) == 0 {
		return ""
	}
	if f[len(f)-1] == "strobe" && len(f) >= 3 { // "mmc HS400 enhanced strobe"
		return f[1]
	}
	return f[len(f)-1]
}

func leadingInt(s string) int {
	s = strings.TrimSpace(s)
	end := 0
	for end < len(s) && s[end] >= '0' && s[end] <= '9' {
		end++
	}
	v, _ := strconv.Atoi(s[:end])
	return v
}
