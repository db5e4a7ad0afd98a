package lab

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"
)

// TestShrinkUnderWrites shrinks a drive while writers keep writing past the new end, the race
// that once let a loop device keep its old size (the writes grew the cut image back before the
// device re-read it); NewDrive skips it where drives are unavailable, and fails it in CI. Once Shrink returns, the device must report the new size and a write past
// it must fail with ENOSPC. (The image may still grow by a few blocks: a write that passed the
// kernel's end-of-device check before the size changed and waited for the frozen queue lands
// afterwards. Seen here: 8-12 KiB past the cut. It cannot move the device's end.)
func TestShrinkUnderWrites(t *testing.T) {
	const sizeMB, shrunkMB = 32, 16
	for round := 0; round < 5; round++ {
		t.Run(fmt.Sprint("round", round), func(t *testing.T) { shrinkUnderWrites(t, sizeMB, shrunkMB) })
	}
}

func shrinkUnderWrites(t *testing.T, sizeMB, shrunkMB int64) {
	d := NewDrive(t, Spec{Name: "shrink", SizeMB: int(sizeMB)})
	f, err := os.OpenFile(d.Dev, os.O_WRONLY|unix.O_DIRECT, 0)
	if err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			buf := alignedBuf(4096)
			off := int64(shrunkMB)<<20 + int64(w)*4096
			for !stop.Load() {
				f.WriteAt(buf, off) // failures are expected once the drive has shrunk
				if off += 8192; off >= sizeMB<<20 {
					off = int64(shrunkMB)<<20 + int64(w)*4096
				}
			}
		}(w)
	}
	err = d.Shrink(int(shrunkMB))
	_, werr := f.WriteAt(alignedBuf(4096), (shrunkMB+4)<<20)
	stop.Store(true)
	wg.Wait()
	end, serr := f.Seek(0, io.SeekEnd)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if serr != nil || end != shrunkMB<<20 {
		t.Fatalf("the device ends at %d (%v), want %d", end, serr, shrunkMB<<20)
	}
	if !errors.Is(werr, unix.ENOSPC) {
		t.Fatalf("a write past the new end returned %v, want ENOSPC", werr)
	}
}
