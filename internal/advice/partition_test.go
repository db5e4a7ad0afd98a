package advice

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

func TestPartitionMisaligned(t *testing.T) {
	part := func(start uint64) *probe.Report {
		return &probe.Report{Partition: &probe.Partition{Name: "sda1", StartBytes: start,
			Aligned1MiB: start%(1<<20) == 0, Aligned4MiB: start%(4<<20) == 0}}
	}
	check(t, "sector 63", partitionMisaligned, part(63*512), "partition-misaligned:warn")
	check(t, "sector 32 (old flash drive layout)", partitionMisaligned, part(32*512), "partition-misaligned:warn")
	check(t, "sector 2048", partitionMisaligned, part(2048*512))
	check(t, "sector 8192", partitionMisaligned, part(8192*512))
	check(t, "whole disk, no partition", partitionMisaligned, &probe.Report{})
}
