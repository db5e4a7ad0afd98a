package probe

import (
	"os"
	"path/filepath"
	"strings"
)

// nvmeController finds the controller directory (…/nvme/nvme0) of a namespace. Without
// native multipath the namespace sits below its controller; with it (CONFIG_NVME_MULTIPATH,
// the default of Debian, Ubuntu and Fedora kernels) the namespace hangs from
// /sys/devices/virtual/nvme-subsystem/nvme-subsysN, which links to its controllers.
func nvmeController(dirs []string) (string, bool) {
	if c, ok := findUp(dirs, reNVMeCtrl); ok {
		return c, true
	}
	for _, d := range dirs {
		if !strings.HasPrefix(filepath.Base(d), "nvme-subsys") {
			continue
		}
		ents, err := os.ReadDir(d)
		if err != nil {
			return "", false
		}
		for _, e := range ents {
			if reNVMeCtrl.MatchString(e.Name()) {
				if c, err := filepath.EvalSymlinks(filepath.Join(d, e.Name())); err == nil {
					return c, true
				}
			}
		}
	}
	return "", false
}

// readNVMe describes an NVMe controller and the PCIe link of the PCI function behind it.
func readNVMe(o Options, ctrlDir string) (*NVMe, []Hop) {
	n := &NVMe{
		Model:      readString(filepath.Join(ctrlDir, "model")),
		Firmware:   readString(filepath.Join(ctrlDir, "firmware_rev")),
		SerialHash: hashSerial(readString(filepath.Join(ctrlDir, "serial"))),
		Address:    readString(filepath.Join(ctrlDir, "address")),
	}
	n.TempC = hwmonTemp(o, ctrlDir)
	pciDir, err := filepath.EvalSymlinks(filepath.Join(ctrlDir, "device"))
	if err != nil {
		return n, nil
	}
	if n.TempC == nil {
		n.TempC = hwmonTemp(o, pciDir) // kernels before 5.5 hung the hwmon on the PCI device
	}
	l, ok := readPCIeLink(pciDir)
	if !ok {
		return n, nil
	}
	n.PCIeGen, n.PCIeWidth = l.gen, l.width
	n.PCIeMaxGen, n.PCIeMaxWidth = l.maxGen, l.maxWidth
	n.PortMaxGen, n.PortMaxWidth = l.portMaxGen, l.portMaxWidth
	h := l.hop()
	h.Driver = "nvme"
	return n, []Hop{h}
}
