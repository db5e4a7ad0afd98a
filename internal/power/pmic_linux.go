package power

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/iomark/iomark/internal/probe"
)

// ioctlMboxProperty is _IOWR(100, 0, char *): the size field is a pointer's, so it differs
// between 32- and 64-bit kernels (vcgencmd.c's IOCTL_MBOX_PROPERTY).
var ioctlMboxProperty = uintptr(0xc0006400 | unsafe.Sizeof(uintptr(0))<<16)

// pmicSampler asks the firmware for pmic_read_adc once per reading.
type pmicSampler struct {
	o     probe.Options
	path  string
	rails int
}

// findPMIC returns the Pi 5 PMIC when the firmware answers pmic_read_adc with rails; nil on
// machines without the mailbox (everything but a Pi), older Pis (the firmware answers
// "Command not registered") and fixture roots.
func findPMIC(o probe.Options) Sampler {
	if !o.Live() {
		return nil
	}
	for _, p := range []string{"/dev/vcio_gencmd", "/dev/vcio"} {
		if _, err := os.Stat(p); err != nil {
			continue
		}
		s := &pmicSampler{o: o, path: p}
		rails, err := s.read()
		if err != nil {
			return nil
		}
		s.rails = len(rails)
		return s
	}
	return nil
}

func (s *pmicSampler) read() ([]rail, error) {
	text, err := probe.WithTimeout(s.o.ProbeTimeout(), func() (string, error) {
		fd, err := unix.Open(s.path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return "", fmt.Errorf("open %s: %w (root or the video group can read the PMIC)", s.path, err)
		}
		defer unix.Close(fd)
		buf := gencmdRequest("pmic_read_adc")
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), ioctlMboxProperty, uintptr(unsafe.Pointer(&buf[0])))
		runtime.KeepAlive(buf)
		if errno != 0 {
			return "", fmt.Errorf("mailbox property ioctl: %w", errno)
		}
		return decodeGencmdReply(buf)
	})
	if err != nil {
		return nil, err
	}
	return parsePMICADC(text)
}

func (s *pmicSampler) Watts() (float64, bool) {
	rails, err := s.read()
	if err != nil {
		return 0, false
	}
	return railWatts(rails), true
}

func (s *pmicSampler) Info() Info {
	return Info{Source: "pi5-pmic", Sensor: fmt.Sprintf("Raspberry Pi 5 PMIC ADC through %s (pmic_read_adc, %d rails with current and voltage)", s.path, s.rails),
		Scope: strings.TrimSpace(pmicScope)}
}
