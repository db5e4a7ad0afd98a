package compare

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe/linkdb"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// Setting is one documented way a board's own bus to a class of drive can run, and what it can
// carry. Results are ranked only among results with the same setting: a Pi 5 NVMe drive at
// PCIe gen 3 is not set against one at the default gen 2.
type Setting struct {
	Family  string   // refdata family
	Classes []string // iomark device classes the bus carries
	Name    string   // as lists print it: "PCIe gen 2 x1"
	Default bool     // what the board runs without any setting changed
	How     string   // how a user gets it ("dtparam=pciex1_gen=3 in config.txt"); empty for the default
	Ceiling linkdb.Ceiling
	Source  string // where the board's bus and the setting are documented
}

var (
	flashClasses = []string{"microsd"}
	nvmeClasses  = []string{"nvme"}
	usbClasses   = []string{"usb-flash", "usb-ssd", "usb-hdd"}
)

const (
	srcPi5PCIe  = "raspberrypi.com/documentation/computers/raspberry-pi.html (PCIe Gen 3.0: the Pi 5 runs its PCIe x1 connector at gen 2 unless dtparam=pciex1_gen=3 is set; not certified for gen 3)"
	srcCM4PCIe  = "raspberrypi.com/documentation/computers/compute-module.html (CM4: one PCIe gen 2 x1 lane)"
	srcPi5SD    = "raspberrypi.com/documentation/accessories/sd-cards.html (Pi 5: SDR104; Pi 4: DDR50)"
	srcSDHost   = "raspberrypi/firmware boot/overlays/README, sdtweak and sdhost: overclock_50 is the clock used when the card asks for 50 MHz, 50 by default"
	srcPiUSB    = "raspberrypi.com/documentation/computers/raspberry-pi.html (Pi 4 and 5: two USB 3.0 ports; Pi 3 and older: USB 2.0 ports behind one hub shared with Ethernet)"
	sdOverclock = "dtoverlay=sdtweak,overclock_50=N in config.txt (the SD clock raised above its mode's)"
)

// settings is the board ceiling table. The ceilings are linkdb's (docs/ceilings.md), for the
// mode each setting runs.
var settings = []Setting{
	{refdata.FamilyPi5, nvmeClasses, "PCIe gen 2 x1", true, "", linkdb.PCIe(2, 1), srcPi5PCIe},
	{refdata.FamilyPi5, nvmeClasses, "PCIe gen 3 x1", false, "dtparam=pciex1_gen=3 in config.txt", linkdb.PCIe(3, 1), srcPi5PCIe},
	{refdata.FamilyPi4, nvmeClasses, "PCIe gen 2 x1", true, "", linkdb.PCIe(2, 1), srcCM4PCIe},
	{refdata.FamilyPi5, flashClasses, "SD SDR104", true, "", linkdb.SD("sd uhs SDR104", 200_000_000, 4), srcPi5SD},
	{refdata.FamilyPi4, flashClasses, "SD DDR50", true, "", linkdb.SD("sd uhs DDR50", 50_000_000, 4), srcPi5SD},
	{refdata.FamilyPi4, flashClasses, "SD overclocked", false, sdOverclock, linkdb.Ceiling{}, srcSDHost},
	{refdata.FamilyPi3, flashClasses, "SD high speed", true, "", linkdb.SD("sd high-speed", 50_000_000, 4), srcSDHost},
	{refdata.FamilyPi3, flashClasses, "SD overclocked", false, sdOverclock, linkdb.Ceiling{}, srcSDHost},
	{refdata.FamilyPiZero21, flashClasses, "SD high speed", true, "", linkdb.SD("sd high-speed", 50_000_000, 4), srcSDHost},
	{refdata.FamilyPiZero21, flashClasses, "SD overclocked", false, sdOverclock, linkdb.Ceiling{}, srcSDHost},
	{refdata.FamilyPi5, usbClasses, "USB 5 Gbps", true, "", linkdb.USB(5000, "uas"), srcPiUSB},
	{refdata.FamilyPi5, usbClasses, "USB 480 Mbps", false, "a USB 2.0 port, hub or cable", linkdb.USB(480, "uas"), srcPiUSB},
	{refdata.FamilyPi4, usbClasses, "USB 5 Gbps", true, "", linkdb.USB(5000, "uas"), srcPiUSB},
	{refdata.FamilyPi4, usbClasses, "USB 480 Mbps", false, "a black (USB 2.0) port, a USB 2.0 hub or cable", linkdb.USB(480, "uas"), srcPiUSB},
	{refdata.FamilyPi3, usbClasses, "USB 480 Mbps", true, "", linkdb.USB(480, "uas"), srcPiUSB},
	{refdata.FamilyPiZero21, usbClasses, "USB 480 Mbps", true, "", linkdb.USB(480, "uas"), srcPiUSB},
}

// Settings returns the board ceiling table.
func Settings() []Setting { return append([]Setting(nil), settings...) }

func findSetting(family, class, name string) (Setting, bool) {
	for _, s := range settings {
		if s.Family == family && s.Name == name && oneOf(class, s.Classes) {
			return s, true
		}
	}
	return Setting{}, false
}

func defaultSetting(family, class string) (Setting, bool) {
	for _, s := range settings {
		if s.Family == family && s.Default && oneOf(class, s.Classes) {
			return s, true
		}
	}
	return Setting{}, false
}

// Sentence says what a setting caps, for a page: "the Pi 4's SD bus (SD DDR50) caps
// sequential transfers at ~45 MB/s".
func (s Setting) Sentence() string {
	if s.Ceiling.MBPerS <= 0 {
		return ""
	}
	bus := "bus"
	switch {
	case strings.HasPrefix(s.Name, "SD"):
		bus = "SD bus"
	case strings.HasPrefix(s.Name, "PCIe"):
		bus = "PCIe link"
	case strings.HasPrefix(s.Name, "USB"):
		bus = "USB port"
	}
	return fmt.Sprintf("%s's %s (%s) caps sequential transfers at ~%.0f MB/s", familyShort(s.Family), bus, s.Name, s.Ceiling.MBPerS)
}

var pcieDetail = regexp.MustCompile(`PCIe gen(\d) x(\d+)`)

// RecordSetting is the setting a run's board ran its bus at, from the link the run read
// (the PCIe hop's generation and width, the SD timing, the USB port's speed). A run that read
// none (the SD timing needs root) is taken to run the board's default, and inferred says so;
// ok is false where the table has no setting for the board and class.
func RecordSetting(r *record.Run, family, class string) (s Setting, inferred string, ok bool) {
	switch {
	case class == "nvme":
		for _, h := range r.Link {
			if m := pcieDetail.FindStringSubmatch(h.Detail); h.Bus == "pcie" && m != nil {
				if s, ok := findSetting(family, class, "PCIe gen "+m[1]+" x"+m[2]); ok {
					return s, "", true
				}
			}
		}
	case class == "microsd" && r.SD != nil && r.SD.Timing != "":
		def, ok := defaultSetting(family, class)
		if !ok {
			return Setting{}, "", false
		}
		c := linkdb.SD(r.SD.Timing, r.SD.ClockHz, r.SD.BusWidthBits)
		if c.MBPerS > def.Ceiling.MBPerS*1.05 {
			s, ok := findSetting(family, class, "SD overclocked")
			s.Ceiling = c
			return s, "", ok
		}
		return def, "", true
	case oneOf(class, usbClasses):
		for _, h := range r.Link {
			if h.Bus == "usb" && h.SpeedMbps > 0 {
				name := "USB 480 Mbps"
				if h.SpeedMbps >= 5000 {
					name = "USB 5 Gbps"
				}
				if s, ok := findSetting(family, class, name); ok {
					return s, "", true
				}
				break
			}
		}
	}
	s, ok = defaultSetting(family, class)
	return s, "the run did not read its link setting; the board's default is assumed", ok
}

// PublishedSetting is the setting a published row ran: the PCIe generation or SD mode its
// source states; else, for a PCIe drive, gen 3 when a figure is above what gen 2 carries
// (inferred says so); else the board's default, which a source that names no setting is
// taken to have run. An overclocked row ran the SD overclock.
func PublishedSetting(p refdata.Result, family, class string) (s Setting, inferred string, ok bool) {
	switch {
	case p.Overclocked && class == "microsd":
		s, ok = findSetting(family, class, "SD overclocked")
		return s, "", ok
	case class == "nvme" && p.PCIeGen != "":
		if g, err := strconv.Atoi(p.PCIeGen); err == nil {
			s, ok = findSetting(family, class, fmt.Sprintf("PCIe gen %d x1", g))
			return s, "", ok
		}
	case class == "nvme":
		def, ok := defaultSetting(family, class)
		if !ok {
			return Setting{}, "", false
		}
		if gen3, ok3 := findSetting(family, class, "PCIe gen 3 x1"); ok3 {
			for _, f := range []refdata.Figure{p.HdparmDirectReadMBps, p.HdparmReadMBps, p.IozoneSeq1MReadMBps, p.IozoneRand1MReadMBps} {
				if f.Value != nil && *f.Value > def.Ceiling.MBPerS*1.05 {
					return gen3, fmt.Sprintf("the source states no PCIe generation; %s MB/s is more than gen 2 x1 carries (~%.0f MB/s), so gen 3", f.Printed, def.Ceiling.MBPerS), true
				}
			}
		}
		return def, "the source states no PCIe generation; its figures fit the default gen 2", true
	case oneOf(class, usbClasses) && strings.Contains(strings.ToLower(p.Interface), "usb 2"):
		s, ok = findSetting(family, class, "USB 480 Mbps")
		return s, "", ok
	}
	s, ok = defaultSetting(family, class)
	if ok && !s.Default {
		return s, "", ok
	}
	return s, "the source states no setting; the board's default is assumed", ok
}

func oneOf(s string, list []string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
