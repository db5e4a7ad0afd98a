package lab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// blkioRoot is the root cgroup of the v1 blkio controller. Rules set here apply to every
// process and to buffered writeback (kernel threads live in the root cgroup); rules in a
// child cgroup would not throttle writeback.
const blkioRoot = "/sys/fs/cgroup/blkio"

func throttlePath(kind string) string {
	return filepath.Join(blkioRoot, "blkio.throttle."+kind+"_device")
}

// writeThrottle sets all four rules for majMin; a 0 value removes that rule.
func writeThrottle(majMin string, v throttleValues) error {
	return writeThrottleRules(majMin, v, false)
}

// clearThrottle removes every rule for majMin. A device number the kernel no longer knows
// has no rules, so ENODEV is not an error here.
func clearThrottle(majMin string) error {
	return writeThrottleRules(majMin, throttleValues{}, true)
}

func writeThrottleRules(majMin string, v throttleValues, noDevIsOK bool) error {
	if !validMajMin(majMin) {
		return fmt.Errorf("lab: bad device number %q", majMin)
	}
	var errs []error
	for i, kind := range throttleKinds {
		rule := fmt.Sprintf("%s %d", majMin, v[i])
		err := os.WriteFile(throttlePath(kind), []byte(rule), 0)
		if err != nil && !(noDevIsOK && errors.Is(err, syscall.ENODEV)) {
			errs = append(errs, fmt.Errorf("lab: write %q to %s: %w", rule, throttlePath(kind), err))
		}
	}
	return errors.Join(errs...)
}

// readThrottle returns the rules in force for majMin, 0 where there is none.
func readThrottle(majMin string) (throttleValues, error) {
	var v throttleValues
	for i, kind := range throttleKinds {
		b, err := os.ReadFile(throttlePath(kind))
		if err != nil {
			return v, fmt.Errorf("lab: read throttle rules: %w", err)
		}
		rules, err := parseThrottleRules(string(b))
		if err != nil {
			return v, fmt.Errorf("lab: parse %s: %w", throttlePath(kind), err)
		}
		v[i] = rules[majMin]
	}
	return v, nil
}
