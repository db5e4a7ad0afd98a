// Package pirev decodes Raspberry Pi board revision codes: the "Revision" line of
// /proc/cpuinfo and the 4 big-endian bytes of /proc/device-tree/system/linux,revision.
//
// It is pure: it reads no files (the probe package does) and never panics on any input.
// Every table entry comes from the official Raspberry Pi documentation page "Raspberry Pi
// revision codes" (raspberrypi/documentation, computers/raspberry-pi/revision-codes.adoc),
// with the few additions named where they appear.
package pirev
