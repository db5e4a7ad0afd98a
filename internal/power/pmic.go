package power

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The firmware mailbox property interface (github.com/raspberrypi/firmware/wiki/Mailbox-property-interface):
// a buffer of 32-bit words, [0] its size in bytes, [1] the request code (0) replaced by the
// response code (0x80000000 success, 0x80000001 error parsing the request), then tags: an id,
// the value buffer's size, a request/response word (bit 31 set in a response, bits 30:0 the
// response length), the value buffer, and an end tag 0. vcgencmd (github.com/raspberrypi/utils,
// vcgencmd/vcgencmd.c) sends its command as text through tag GET_GENCMD_RESULT 0x00030080: the
// value buffer starts with an error word (0 when the command ran) followed by the command
// text, which the firmware replaces with its answer.
const (
	tagGencmd        = 0x00030080
	mboxRespSuccess  = 0x80000000
	gencmdTextOffset = 24 // bytes: size, code, tag id, value size, request/response, error
	gencmdBufBytes   = 4096
)

// gencmdRequest builds the mailbox buffer of a gencmd as vcgencmd.c does.
func gencmdRequest(command string) []byte {
	words := gencmdTextOffset/4 + gencmdBufBytes/4 + 1 // + the end tag
	b := make([]byte, words*4)
	binary.LittleEndian.PutUint32(b[0:], uint32(len(b)))
	binary.LittleEndian.PutUint32(b[4:], 0) // process request
	binary.LittleEndian.PutUint32(b[8:], tagGencmd)
	binary.LittleEndian.PutUint32(b[12:], gencmdBufBytes)
	binary.LittleEndian.PutUint32(b[16:], 0) // request length
	binary.LittleEndian.PutUint32(b[20:], 0) // error response
	copy(b[gencmdTextOffset:], command)
	// The end tag (0) is already there.
	return b
}

// decodeGencmdReply returns the firmware's answer text from a mailbox buffer after the ioctl.
func decodeGencmdReply(b []byte) (string, error) {
	if len(b) < gencmdTextOffset+4 {
		return "", errors.New("short mailbox reply")
	}
	if code := binary.LittleEndian.Uint32(b[4:]); code != mboxRespSuccess {
		return "", fmt.Errorf("the firmware refused the mailbox request (response code %#x)", code)
	}
	if tag := binary.LittleEndian.Uint32(b[8:]); tag != tagGencmd {
		return "", fmt.Errorf("mailbox reply carries tag %#x, not the gencmd tag", tag)
	}
	if rr := binary.LittleEndian.Uint32(b[16:]); rr&0x80000000 == 0 {
		return "", errors.New("the firmware did not answer the gencmd tag")
	}
	if e := binary.LittleEndian.Uint32(b[20:]); e != 0 {
		return "", fmt.Errorf("the firmware's gencmd failed (error %d)", e)
	}
	text := b[gencmdTextOffset:]
	// The answer ends at the first pair of NULs (some firmware separates lines by NUL, as
	// ml-energy/zeus observed).
	if i := strings.Index(string(text), "\x00\x00"); i >= 0 {
		text = text[:i]
	}
	return strings.ReplaceAll(string(text), "\x00", "\n"), nil
}

// rail is one PMIC rail with both a current and a voltage channel.
type rail struct {
	name        string
	amps, volts float64
}

// adcLine is one line of `vcgencmd pmic_read_adc`: "  VDD_CORE_A current(7)=1.08053000A" or
// "  VDD_CORE_V volt(15)=0.72178200V". The channel numbers of a rail's current and voltage
// differ, so rails are paired by name (the part before _A / _V).
var adcLine = regexp.MustCompile(`^\s*(\S+)_([AV])\s+(current|volt)\(\d+\)=([0-9.]+)([AV])\s*$`)

// parsePMICADC pairs the currents and voltages of pmic_read_adc's answer. Channels with only
// a voltage (EXT5V_V, the 5 V input; BATT_V, the RTC battery) give no power and are left out.
func parsePMICADC(text string) ([]rail, error) {
	if strings.Contains(text, "error") {
		return nil, fmt.Errorf("the firmware does not read a PMIC here: %s", strings.TrimSpace(text))
	}
	amps, volts := map[string]float64{}, map[string]float64{}
	for _, line := range strings.Split(text, "\n") {
		m := adcLine.FindStringSubmatch(line)
		if m == nil || m[2] != m[5] || (m[2] == "A") != (m[3] == "current") {
			continue
		}
		v, err := strconv.ParseFloat(m[4], 64)
		if err != nil || v < 0 || v > 100 {
			continue
		}
		if m[2] == "A" {
			amps[m[1]] = v
		} else {
			volts[m[1]] = v
		}
	}
	var out []rail
	for name, a := range amps {
		if v, ok := volts[name]; ok {
			out = append(out, rail{name: name, amps: a, volts: v})
		}
	}
	if len(out) == 0 {
		return nil, errors.New("the firmware's answer names no rail with both a current and a voltage")
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out, nil
}

func railWatts(rails []rail) float64 {
	w := 0.0
	for _, r := range rails {
		w += r.amps * r.volts
	}
	return w
}

// pmicScope is what the Pi 5 PMIC's rails cover: the SoC, memory and on-board rails it
// regulates; the 5 V input feeds USB ports, the fan and HATs (an NVMe HAT included) directly,
// and no current is measured on it.
const pmicScope = "the Raspberry Pi 5 PMIC's rails (SoC core, DRAM, on-board 3.3/1.8/1.1/0.8 V, HDMI, Wi-Fi): " +
	"the 5 V that USB ports, the fan and HATs (NVMe HATs included) draw is not measured — use --power-watts with a USB-C meter for the whole board"
