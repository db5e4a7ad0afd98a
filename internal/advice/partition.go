package advice

import (
	"fmt"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// partitionMisaligned: a partition that does not start on a 1 MiB boundary makes writes
// straddle flash pages and erase blocks (and 4 KiB physical sectors): every write can cost two.
func partitionMisaligned(r *probe.Report) []record.Finding {
	p := r.Partition
	if p == nil || p.Aligned1MiB {
		return nil
	}
	return one(record.Finding{
		ID:       "partition-misaligned",
		Severity: record.SeverityWarn,
		Message: fmt.Sprintf("partition %s starts at byte %d (sector %d), not on a 1 MiB boundary: writes can straddle flash pages and erase blocks",
			p.Name, p.StartBytes, p.StartBytes/512),
		Fix:      "recreate the partition starting at a multiple of 1 MiB (parted -a optimal, or fdisk's default start sector 2048) and restore the data",
		Evidence: fmt.Sprintf("start %d bytes, %d bytes past a 1 MiB boundary", p.StartBytes, p.StartBytes%(1<<20)),
	})
}
