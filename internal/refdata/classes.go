package refdata

// storageClasses are the storage_class values a row may carry (SOURCES.md, "Columns and
// units"). The first six are the original classes of shared/data/published-results.csv; nvme,
// emmc and sata are storage on the board's own bus (PCIe, the SoC's MMC controller, a SATA
// controller), added with the Pi 5, Compute Module and other-SBC rows. usb-ssd is a USB SSD whose
// source does not say whether a SATA or an NVMe drive sits behind the bridge.
var storageClasses = []string{"microsd", "usb-flash", "usb-ssd-sata", "usb-ssd-nvme", "usb-emmc", "msata-usb",
	"nvme", "emmc", "sata", "usb-ssd"}

// deviceClasses maps each storage class to the class internal/probe gives such a device
// (probe.ClassMicroSD … probe.ClassSATA; the strings are repeated here because refdata imports
// nothing of iomark, and classes_test.go checks they match). An eMMC module in a USB adapter is
// what probe calls a flash drive behind a USB bridge; an mSATA SSD in a USB adapter is a USB SSD.
var deviceClasses = map[string]string{
	"microsd":      "microsd",
	"usb-flash":    "usb-flash",
	"usb-ssd-sata": "usb-ssd",
	"usb-ssd-nvme": "usb-ssd",
	"usb-ssd":      "usb-ssd",
	"msata-usb":    "usb-ssd",
	"usb-emmc":     "usb-flash",
	"nvme":         "nvme",
	"emmc":         "emmc",
	"sata":         "sata",
}

// StorageClasses returns the storage_class values a row may carry.
func StorageClasses() []string {
	out := make([]string, len(storageClasses))
	copy(out, storageClasses)
	return out
}

// DeviceClass returns iomark's device class (internal/probe: microsd, emmc, usb-flash,
// usb-ssd, nvme, sata) for a storage class, so published rows rank beside measured ones; empty
// for an unknown storage class.
func DeviceClass(storageClass string) string { return deviceClasses[storageClass] }

func knownStorageClass(c string) bool { return oneOf(c, storageClasses) }
