// Package qemu boots real Debian kernels under QEMU (TCG) on emulated drives — NVMe behind
// a PCIe root port, SATA on AHCI, USB sticks on xHCI and EHCI (BOT and UAS), a USB hub, SD on
// sdhci-pci, and a Raspberry Pi 3 with its SD host and dwc2 USB — runs iomark and shell steps
// in the guest and hands their output to Go tests.
//
// It owns: fetching kernels and busybox with `apt-get download` into a cache of its own
// (Cache, outside the repository, reused between runs), building an initramfs from freshly
// built static iomark and labctl binaries, the machine configurations (config.go), booting
// one under a timeout and parsing its console into step outputs. It is used only by tests
// and by scripts/qemu-lab.sh; it writes only its cache and temporary files it creates, and
// every drive a guest sees is a file it made.
package qemu
