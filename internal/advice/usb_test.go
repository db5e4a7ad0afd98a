package advice

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestUSBPortUSB2(t *testing.T) {
	usb := func(speed, maxSpeed, port int) *probe.Report {
		return &probe.Report{USB: &probe.USB{VID: "174c", PID: "55aa", SpeedMbps: speed, MaxSpeedMbps: maxSpeed,
			MaxSpeedSource: "bos", PortMaxSpeedMbps: port, Driver: "uas"}}
	}
	check(t, "USB 3 device at 480 on a USB 3 controller", usbPortUSB2, usb(480, 5000, 5000), "usb-port-usb2:bad")
	check(t, "USB 3 device on a USB 2-only host", usbPortUSB2, usb(480, 5000, 480), "usb-port-usb2:info")
	check(t, "port capability unknown", usbPortUSB2, usb(480, 10000, 0), "usb-port-usb2:warn")
	check(t, "USB 3 device at 5000", usbPortUSB2, usb(5000, 5000, 5000))
	check(t, "USB 2 device at 480", usbPortUSB2, usb(480, 0, 5000))
	check(t, "speed unknown", usbPortUSB2, usb(0, 5000, 5000))
	check(t, "no USB", usbPortUSB2, &probe.Report{})
}

func TestUSBNoUAS(t *testing.T) {
	rep := func(driver string, speed int, bridge *probe.Bridge, quirk string) *probe.Report {
		return &probe.Report{USB: &probe.USB{VID: "152d", PID: "0578", Driver: driver, SpeedMbps: speed, Bridge: bridge,
			Quirks: quirk, UASDisabledByQuirk: quirk != ""}}
	}
	uasBridge := &probe.Bridge{Vendor: "JMicron", Chip: "JMS578", UAS: true, Note: "update the firmware"}
	check(t, "usb-storage at 5000, no bridge known", usbNoUAS, rep("usb-storage", 5000, nil, ""), "usb-no-uas:warn")
	check(t, "usb-storage at 10000 with a UAS bridge", usbNoUAS, rep("usb-storage", 10000, uasBridge, ""), "usb-no-uas:warn")
	check(t, "UAS switched off by a quirk", usbNoUAS, rep("usb-storage", 5000, uasBridge, "152d:0578:u"), "usb-no-uas:warn")
	check(t, "uas at 5000", usbNoUAS, rep("uas", 5000, uasBridge, ""))
	check(t, "usb-storage at 480", usbNoUAS, rep("usb-storage", 480, nil, ""))
	check(t, "no USB", usbNoUAS, &probe.Report{})

	f := usbNoUAS(rep("usb-storage", 5000, uasBridge, "152d:0578:u"))[0]
	if !strings.Contains(f.Fix, "152d:0578:u") {
		t.Errorf("the fix must name the quirk in force: %q", f.Fix)
	}
}
