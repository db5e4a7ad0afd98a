package probe

import (
	"golang.org/x/sys/unix"
)

// statTarget returns the device a path lives on, or the device a block special file is.
func statTarget(path string) ([2]uint32, bool, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return [2]uint32{}, false, err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFBLK {
		rdev := uint64(st.Rdev)
		return [2]uint32{unix.Major(rdev), unix.Minor(rdev)}, true, nil
	}
	dev := uint64(st.Dev)
	return [2]uint32{unix.Major(dev), unix.Minor(dev)}, false, nil
}
