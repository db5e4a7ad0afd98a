package record

import (
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// NewID returns a new run id: a UUIDv7, unique across machines and sortable by time.
func NewID() (string, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("making a run id: %w", err)
	}
	return id.String(), nil
}

// DeviceKey names the drive model a run measured, so results of the same product group
// together whatever machine ran them: SD cards by manufacturer id, OEM id and product name
// (two cards that share a marketing name but not these are different products); USB drives
// by the bridge's VID:PID and the drive model behind it; NVMe and SATA by model; a drive
// nothing identifies by its class and size, as reported. Empty when the run has no device.
func (r *Run) DeviceKey() string {
	norm := func(parts ...string) string {
		for i, p := range parts {
			parts[i] = strings.ToLower(strings.Join(strings.Fields(p), " "))
		}
		return strings.Join(parts, ":")
	}
	switch {
	case r.SD != nil && r.SD.Name != "":
		return norm("sd", fmt.Sprintf("%02x", r.SD.ManfID), r.SD.OEMID, r.SD.Name)
	case r.USB != nil:
		model := r.USB.SCSIModel
		if r.USB.Drive != nil && r.USB.Drive.Model != "" {
			model = r.USB.Drive.Model
		}
		return norm("usb", r.USB.VID+":"+r.USB.PID, model)
	case r.NVMe != nil && r.NVMe.Model != "":
		return norm("nvme", r.NVMe.Model)
	case r.SATA != nil && r.SATA.Model != "":
		return norm("sata", r.SATA.Model)
	case r.Device != nil && r.Device.Model != "":
		return norm(r.Device.Class, r.Device.Vendor, r.Device.Model)
	case r.Device != nil && r.Device.Class != "":
		// Unidentified: group it as reported (class and size) rather than hide it.
		return norm(r.Device.Class, "unidentified", fmt.Sprintf("%.0fgb", float64(r.Device.CapacityBytes)/1e9))
	}
	return ""
}

// TestByName returns the named test, or nil.
func (r *Run) TestByName(name string) *Test {
	for i := range r.Tests {
		if r.Tests[i].Name == name {
			return &r.Tests[i]
		}
	}
	return nil
}

// UnitKey names one physical drive rather than its product: the device key, the serial
// number's hash and the capacity the drive reports. Two fake cards of one product are two
// units; a card whose serial is blank (fakes often have none) is told apart by its claimed
// size only. Empty when the run has no device key.
func (r *Run) UnitKey() string {
	key := r.DeviceKey()
	if key == "" {
		return ""
	}
	serial := ""
	switch {
	case r.SD != nil && r.SD.SerialHash != "":
		serial = r.SD.SerialHash
	case r.USB != nil && r.USB.SerialHash != "":
		serial = r.USB.SerialHash
	case r.Device != nil:
		serial = r.Device.SerialHash
	}
	var capacity uint64
	if r.Device != nil {
		capacity = r.Device.CapacityBytes
	}
	return fmt.Sprintf("%s|%s|%d", key, serial, capacity)
}
