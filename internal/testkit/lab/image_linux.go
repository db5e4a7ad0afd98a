package lab

import (
	crand "crypto/rand"
	"fmt"
	"math/rand/v2"
	"os"
	"syscall"
)

// makeImage creates a file of sizeMB MiB in imageDir filled with random bytes: every block
// holds real, incompressible data, so a read never hits a hole and a compressing layer gets
// no free ride.
func makeImage(name string, sizeMB int) (path string, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(imageDir, &st); err != nil {
		return "", fmt.Errorf("lab: statfs %s: %w", imageDir, err)
	}
	needBytes := uint64(sizeMB) << 20
	if freeBytes := st.Bavail * uint64(st.Bsize); freeBytes < needBytes+(64<<20) {
		return "", fmt.Errorf("lab: %s has %d MiB free, drive %s needs %d MiB: use a smaller SizeMB or free memory",
			imageDir, freeBytes>>20, name, sizeMB)
	}
	f, err := os.CreateTemp(imageDir, ownedPrefix()+name+"-*.img")
	if err != nil {
		return "", fmt.Errorf("lab: create image in %s: %w", imageDir, err)
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("lab: close image %s: %w", f.Name(), cerr)
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}()
	var seed [32]byte
	crand.Read(seed[:])
	src := rand.NewChaCha8(seed)
	buf := make([]byte, 4<<20)
	for written := uint64(0); written < needBytes; written += uint64(len(buf)) {
		chunk := buf[:min(uint64(len(buf)), needBytes-written)]
		src.Read(chunk)
		if _, err := f.Write(chunk); err != nil {
			return f.Name(), fmt.Errorf("lab: fill image %s: %w", f.Name(), err)
		}
	}
	return f.Name(), nil
}
