package advice

import (
	"strings"
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestUSBFullSpeed(t *testing.T) {
	rep := func(port int, hops ...probe.Hop) *probe.Report {
		return &probe.Report{USB: &probe.USB{VID: "46f4", PID: "0001", SpeedMbps: hops[0].SpeedMbps, PortMaxSpeedMbps: port}, Link: hops}
	}
	stick12 := probe.Hop{Bus: "usb", Name: "1-4.1", SpeedMbps: 12, Driver: "usb-storage"}
	hub12 := probe.Hop{Bus: "usb", Name: "1-4", SpeedMbps: 12, Driver: "hub"}
	stick480 := probe.Hop{Bus: "usb", Name: "1-1", SpeedMbps: 480, Driver: "usb-storage"}
	check(t, "stick behind a full-speed hub on xHCI", usbFullSpeed, rep(5000, stick12, hub12), "usb-full-speed:bad")
	check(t, "stick fell back to full speed on a USB 2 host", usbFullSpeed, rep(480, stick12), "usb-full-speed:bad")
	check(t, "USB 2 stick at 480", usbFullSpeed, rep(5000, stick480))
	check(t, "USB 1.1-only host", usbFullSpeed, rep(12, stick12))
	check(t, "port unknown", usbFullSpeed, rep(0, stick12))
	check(t, "no USB", usbFullSpeed, &probe.Report{})

	if f := usbFullSpeed(rep(5000, stick12, hub12))[0]; !strings.Contains(f.Fix, "hub") || !strings.Contains(f.Evidence, "1-4 at 12 Mb/s") {
		t.Errorf("a hub in the chain must be named: %+v", f)
	}
}
