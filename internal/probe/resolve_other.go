//go:build !linux

package probe

func statTarget(string) ([2]uint32, bool, error) { return [2]uint32{}, false, errNoStat }
