package health

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/iomark/iomark/internal/probe"
)

// readEMMC reads an eMMC's health from the attributes the kernel's MMC core exports for the
// card (drivers/mmc/core/mmc.c: life_time "0x%02x 0x%02x", pre_eol_info "0x%02x", from
// EXT_CSD bytes 268, 269 and 267). Files only: nothing is sent to the card.
func readEMMC(o probe.Options, d *probe.Device) *Health {
	if d.Sysfs == "" {
		return nothing("the eMMC's sysfs directory is not known")
	}
	card := filepath.Join(o.Path(d.Sysfs), "device")
	lt, ltErr := os.ReadFile(filepath.Join(card, "life_time"))
	eol, eolErr := os.ReadFile(filepath.Join(card, "pre_eol_info"))
	if ltErr != nil && eolErr != nil {
		return nothing("this eMMC's kernel exports no life_time or pre_eol_info (eMMC 5.0 and later report them; older kernels do not export them)")
	}
	h, err := decodeEMMC(string(lt), string(eol))
	if err != nil {
		return nothing("%v", err)
	}
	return h
}

// eMMC life time estimate bands (JESD84-B51, EXT_CSD DEVICE_LIFE_TIME_EST_TYP_A/B [268/269]):
// 0x01 means 0-10% of the life used, ... 0x0A 90-100%, 0x0B exceeded; 0x00 not defined.
func lifeBand(v int) (band string, usedLowerPct int, ok bool) {
	switch {
	case v >= 1 && v <= 10:
		return fmt.Sprintf("%d-%d%%", (v-1)*10, v*10), (v - 1) * 10, true
	case v == 11:
		return "exceeded", 100, true
	}
	return "", 0, false
}

// preEOLStates names PRE_EOL_INFO [267] (JESD84-B51): 1 normal, 2 warning (80% of the
// reserved blocks consumed), 3 urgent (90%).
var preEOLStates = map[int]string{1: "normal", 2: "warning", 3: "urgent"}

// decodeEMMC decodes the life_time and pre_eol_info attributes ("" when absent).
func decodeEMMC(lifeTime, preEOL string) (*Health, error) {
	h := &Health{Source: SourceEMMC}
	f := strings.Fields(lifeTime)
	if len(f) == 2 {
		a, errA := strconv.ParseUint(strings.TrimPrefix(f[0], "0x"), 16, 8)
		b, errB := strconv.ParseUint(strings.TrimPrefix(f[1], "0x"), 16, 8)
		if errA == nil && errB == nil {
			bandA, usedA, okA := lifeBand(int(a))
			bandB, usedB, okB := lifeBand(int(b))
			h.LifeTimeEstA, h.LifeTimeEstB = bandA, bandB
			// The worse of the two areas (type A is SLC, type B MLC) is the drive's.
			switch {
			case okA && okB:
				h.PercentageUsed = ptr(max(usedA, usedB))
			case okA:
				h.PercentageUsed = ptr(usedA)
			case okB:
				h.PercentageUsed = ptr(usedB)
			}
			if h.PercentageUsed != nil {
				h.PercentageUsedBasis = "eMMC life time estimate, lower bound of its 10% band"
			}
		}
	}
	if v, err := strconv.ParseUint(strings.TrimPrefix(strings.TrimSpace(preEOL), "0x"), 16, 8); err == nil {
		h.PreEOL = preEOLStates[int(v)]
	}
	if h.PercentageUsed == nil && h.PreEOL == "" {
		return nil, fmt.Errorf("this eMMC reports no life time estimate (life_time %q, pre_eol_info %q: values 0 mean the card does not define them, as before eMMC 5.0)",
			strings.TrimSpace(lifeTime), strings.TrimSpace(preEOL))
	}
	return h, nil
}
