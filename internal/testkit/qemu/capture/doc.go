// Package capture copies the slice of /sys, /proc and /etc that package probe reads into a
// fixture tree (internal/probe/testdata/NAME), so that a machine or a QEMU guest can be
// replayed by `iomark info --root` and the probe tests.
//
// It reads from a root (the live system or another tree) and writes only under the
// destination directory it is given. Symlinks are kept as links with their relative targets,
// as sysfs has them, so the walk from a block device up to the CPU resolves inside the tree.
package capture
