package probe

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ataDeviceID finds libata's copy of a disk's IDENTIFY data:
// ataN/linkL/devL.D/ata_device/devL.D/id (Documentation/ABI/testing/sysfs-ata; the same file
// is /sys/class/ata_device/devL.D/id). The SCSI address H:C:T:L of the disk gives the link
// (C, for a port multiplier's links) and the device on it (T); a port with one device needs
// neither.
func ataDeviceID(portDir, diskDir string) (string, bool) {
	port := strings.TrimPrefix(filepath.Base(portDir), "ata")
	addr := strings.Split(linkBase(filepath.Join(diskDir, "device")), ":")
	if len(addr) == 4 {
		if _, err := strconv.Atoi(addr[2]); err == nil {
			for _, link := range []string{port, port + "." + addr[1]} {
				dev := "dev" + link + "." + addr[2]
				p := filepath.Join(portDir, "link"+link, dev, "ata_device", dev, "id")
				if exists(p) {
					return p, true
				}
			}
		}
	}
	ms, _ := filepath.Glob(filepath.Join(portDir, "link*", "dev*", "ata_device", "dev*", "id"))
	if len(ms) == 1 {
		return ms[0], true
	}
	return "", false
}

// readATAIDFile decodes libata's id attribute: the 256 IDENTIFY words as 4 hex digits each,
// eight to a line (drivers/ata/libata-transport.c, show_ata_dev_id), already in CPU order.
func readATAIDFile(p string) (*ATAIdentity, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return parseATAIDText(string(b))
}

func parseATAIDText(s string) (*ATAIdentity, error) {
	f := strings.Fields(s)
	if len(f) != 256 {
		return nil, fmt.Errorf("ATA id has %d words, want 256", len(f))
	}
	raw := make([]byte, 512)
	for i, w := range f {
		v, err := strconv.ParseUint(w, 16, 16)
		if err != nil || len(w) != 4 {
			return nil, errors.New("ATA id: word " + strconv.Itoa(i) + " is not 4 hex digits")
		}
		raw[2*i], raw[2*i+1] = byte(v), byte(v>>8)
	}
	return parseIdentify(raw)
}
