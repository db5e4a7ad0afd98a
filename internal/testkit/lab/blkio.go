package lab

import (
	"fmt"
	"strconv"
	"strings"
)

// throttleKinds are the four cgroup-v1 blkio throttle files, blkio.throttle.<kind>_device.
var throttleKinds = [...]string{"read_iops", "write_iops", "read_bps", "write_bps"}

// throttleValues holds one value per throttle kind, in throttleKinds order; 0 means no rule.
type throttleValues [len(throttleKinds)]uint64

// limitsToValues converts the user's units (IOPS, 10^6 B/s) to the kernel's (IOPS, B/s).
func limitsToValues(readIOPS, writeIOPS, readMBps, writeMBps int) throttleValues {
	return throttleValues{
		uint64(readIOPS), uint64(writeIOPS),
		uint64(readMBps) * 1_000_000, uint64(writeMBps) * 1_000_000,
	}
}

// parseThrottleRules reads a blkio.throttle.*_device file: one "MAJ:MIN value" per line.
func parseThrottleRules(content string) (map[string]uint64, error) {
	rules := map[string]uint64{}
	for n, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 || !validMajMin(fields[0]) {
			return nil, fmt.Errorf("line %d %q: want \"MAJ:MIN value\"", n+1, line)
		}
		v, err := strconv.ParseUint(fields[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("line %d %q: %v", n+1, line, err)
		}
		rules[fields[0]] = v
	}
	return rules, nil
}

// validMajMin accepts "7:3" as the kernel prints a device number.
func validMajMin(s string) bool {
	maj, min, ok := strings.Cut(s, ":")
	if !ok {
		return false
	}
	_, errMaj := strconv.ParseUint(maj, 10, 32)
	_, errMin := strconv.ParseUint(min, 10, 32)
	return errMaj == nil && errMin == nil
}
