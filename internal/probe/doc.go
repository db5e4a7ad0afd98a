// Package probe identifies the storage behind a target (directory, file, partition or disk)
// and everything between it and the CPU: mount, filesystem, partition, block device, transport
// (mmc, usb, nvme, sata, virtio, loop), each link's negotiated and maximum speed, the board,
// its sensors and the settings that change storage results.
//
// Every reader takes Options.Root so that tests read fixture trees (testdata/) instead of the
// live /sys, /proc and /etc. Probe never writes: it only reads files and issues read-only
// ioctls, each bounded by Options.Timeout so that a buggy USB bridge cannot hang the command.
// The ATA commands it may send are the read-only ATACommand values it defines; ATASession
// lends that SG_IO seam, under the same bound, to package health.
// It makes no judgement about what it finds; that belongs to package advice.
package probe
