// Package lab gives tests and benchmark programs drives whose limits are known: a RAM-backed
// loop device (an image in /dev/shm filled with real random data, attached with direct I/O),
// optionally with ext4 mounted on a temporary directory, throttled for every process by rules
// on the root cgroup-v1 blkio controller. It also runs fio, the peer every engine test is
// checked against, and parses its JSON. A bare drive can shrink under a job (Drive.Shrink), so
// I/O past its new end fails: a drive that starts failing, for error-path tests.
//
// It also emulates flash cards (card.go, card_fuse_linux.go): a Card is the behaviour a test
// sets — claimed against real capacity and how the card fails past it (wrap, writes dropped
// and read back as zeros, 0xff or stale data, I/O errors), a write cache that hides dropped
// writes until evicted, an erase block whose boundary costs latency, an SLC cache, bad
// regions (unreadable stretches answering I/O errors, or corrupt data; also added later,
// AddBadRegion), slow zones with rates of their own, rates — and UpCard serves it as one FUSE
// file (FOPEN_DIRECT_IO, so nothing caches between the kernel and the card) attached to a
// loop device with direct I/O. The FUSE server
// lives in the test process: when that process dies, the mount answers ENOTCONN and its loop
// device fails every I/O; SweepOrphans detaches and unmounts such cards as it does images.
//
// It owns only what it creates: Down unmounts, clears throttle rules, detaches and removes
// exactly the mount, loop device and image that Up made, and never touches any other device.
// Throttle rules are cleared when a device is attached and in every cleanup path, because a
// loop device's queue (and the rules keyed by its MAJ:MIN) outlive detach. Images carry the
// PID of the process that made them, and Up first sweeps drives whose process died before
// Down (SweepOrphans); drives made by scripts/lab/drive.sh are never swept.
//
// PassthroughFS mounts a FUSE passthrough of a directory (go-fuse, served in the test
// process): a filesystem without O_TMPFILE, as vfat and exfat are on users' drives.
//
// It is support code for tests and bench programs only and must never be imported by
// cmd/iomark or any package it links: it execs losetup, mkfs.ext4, mount, umount and fio
// (test-time tools from util-linux, e2fsprogs and fio), and testing.go imports package
// testing for NewDrive, which is fine here because nothing in the product binary imports lab.
//
// It needs Linux, root, the loop driver and the cgroup-v1 blkio controller at
// /sys/fs/cgroup/blkio (cards need /dev/fuse instead of blkio); Available and CardAvailable
// say what is missing, and Require, NewDrive and NewCardDrive end a test with that message
// (testkit.Require: a skip, or a failure in CI). scripts/lab/drive.sh does the same for people
// and shell scripts.
package lab
