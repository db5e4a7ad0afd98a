package probe

import (
	"path/filepath"
)

// readLoop describes a loop device: its backing file and whether it uses direct I/O.
func readLoop(diskDir string) (*Loop, Hop) {
	l := &Loop{BackingFile: readString(filepath.Join(diskDir, "loop", "backing_file"))}
	if v, ok := readInt(filepath.Join(diskDir, "loop", "offset")); ok {
		l.OffsetBytes = v
	}
	if v, ok := readInt(filepath.Join(diskDir, "loop", "dio")); ok {
		l.DirectIO = v == 1
	}
	return l, Hop{Bus: "loop", Name: filepath.Base(diskDir), Driver: "loop", Detail: "file-backed: speed is that of the file's filesystem"}
}
