package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/flash"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// ext4BlockBytes is the block size mkfs.ext4 picks for anything but tiny filesystems; the
// stride values are in these blocks.
const ext4BlockBytes = 4096

// EraseBlockAlignment judges a disk's partitions against the erase block `iomark info
// --geometry` estimated: a partition that does not start on a multiple of it makes writes
// that fill an erase block of the filesystem's straddle two of the flash's. None when the
// estimate is unknown. The ext4 values follow the usual advice for flash (stride and
// stripe-width both the erase block in filesystem blocks: e.g. TechNexion's
// "mkfs.ext4 -E stripe-width=64,stride=64" for 256 KiB erase blocks).
func EraseBlockAlignment(parts []probe.Partition, g *flash.Geometry, device string) []record.Finding {
	if g == nil || g.EraseBlockBytes <= 0 {
		return nil
	}
	eb := uint64(g.EraseBlockBytes)
	var out []record.Finding
	for _, p := range parts {
		if p.StartBytes%eb == 0 {
			continue
		}
		start := (p.StartBytes + eb - 1) / eb * eb
		n := eb / ext4BlockBytes
		out = append(out, record.Finding{
			ID:       "partition-erase-block",
			Severity: record.SeverityWarn,
			Message: fmt.Sprintf("partition %s starts at byte %d, not on a multiple of the %s erase block (%s confidence): writes straddle erase blocks, which can halve write speed and add wear",
				p.Name, p.StartBytes, siBinary(eb), g.Confidence),
			Fix: fmt.Sprintf("recreate %s starting at sector %d (byte %d, a multiple of %s) and restore its data; for ext4: mkfs.ext4 -E stride=%d,stripe-width=%d /dev/%s",
				p.Name, start/512, start, siBinary(eb), n, n, p.Name),
			Evidence: fmt.Sprintf("%s: start %d bytes = %d × %s + %d; %s", device, p.StartBytes, p.StartBytes/eb, siBinary(eb), p.StartBytes%eb, g.Reason),
		})
	}
	return out
}

func siBinary(b uint64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10 && b%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d bytes", b)
}
