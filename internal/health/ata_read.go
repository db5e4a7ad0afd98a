package health

import (
	"errors"
	"fmt"

	"github.com/iomark/iomark/internal/probe"
)

// readATA asks an ATA drive (libata, or behind a USB-SATA bridge through SAT) for IDENTIFY
// DEVICE, SMART READ DATA, the attribute thresholds and, when IDENTIFY says SCT is there, the
// SCT status log: read-only commands through probe's SG_IO seam, the whole exchange bounded by
// the probe timeout.
func readATA(o probe.Options, devPath, model string) (*Health, error) {
	var a ataAnswers
	err := probe.ATASession(o, devPath, func(send func(probe.ATACommand) ([]byte, error)) error {
		var err error
		if a.identify, err = send(probe.ATAIdentifyDevice); err != nil {
			return err
		}
		id, err := decodeIdentify(a.identify)
		if err != nil {
			return err
		}
		if id.smartSupported && !id.smartEnabled {
			return errors.New("SMART is disabled on this drive (iomark never enables it; smartctl -s on does)")
		}
		if a.data, err = send(probe.ATASMARTReadData); err != nil {
			return fmt.Errorf("the drive did not answer SMART READ DATA: %w", err)
		}
		// Thresholds and SCT status are optional: a drive that lacks them still has data.
		a.thresholds, _ = send(probe.ATASMARTReadThresholds)
		if id.sct {
			a.sct, _ = send(probe.ATASMARTReadLogSCTStatus)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return decodeATA(a, model)
}
