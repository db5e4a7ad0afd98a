// Package health reads what a drive says about its own wear and errors: the NVMe SMART /
// health information log page, ATA SMART attributes with their thresholds and the SCT status
// temperature (directly on libata disks and through USB-SATA bridges that pass ATA commands),
// and an eMMC's life-time estimates and pre-EOL state from sysfs. SD cards and USB flash
// drives report nothing, and Read says so plainly.
//
// One source per file, each with a decoder of the bytes or text the drive returns and fuzz
// targets for it; tables of what vendors' ATA attributes mean are data (ata_table.go) with
// the source of each entry.
//
// What it must not do: write to a drive or change its settings (it never enables SMART,
// starts a self-test or writes a log: only the read-only commands of package probe and the
// NVMe Get Log Page are sent), block longer than the probe timeout (a buggy bridge must not
// hang iomark), or judge what it reads (package advice makes the findings). Health is the
// record's type (package record), as every run record carries it.
package health
