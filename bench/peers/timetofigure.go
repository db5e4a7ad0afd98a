package main

import (
	"context"
	"path/filepath"
	"strconv"
	"time"
)

// quickShape is one test of the quick profile as a plain `iomark job`, for a long reference
// run of the same shape (internal/profile/quick.go: sequential at QD1 through psync, random
// through the default engine, O_DIRECT, on a laid-out 128 MiB file).
type quickShape struct {
	Test   string // quick's test name
	RW, BS string
	QD     int
	Engine string
	Field  string // the figure quick reports first for it: mb_per_s or iops
}

var quickShapes = []quickShape{
	{"seq-read-1m", "read", "1m", 1, "psync", "mb_per_s"},
	{"seq-write-1m", "write", "1m", 1, "psync", "mb_per_s"},
	{"rand-read-4k-qd1", "randread", "4k", 1, "auto", "iops"},
	{"rand-write-4k-qd1", "randwrite", "4k", 1, "auto", "iops"},
	{"rand-read-4k-qd32", "randread", "4k", 32, "auto", "iops"},
	{"rand-write-4k-qd32", "randwrite", "4k", 32, "auto", "iops"},
}

// refFile is the reference runs' test file, laid out by the first job that names it.
const refFile = "iomark-ref.dat"

func refArgs(mnt string, s quickShape, runtime time.Duration) []string {
	args := []string{"job", "--target", filepath.Join(mnt, refFile), "--size", "128m", "--time-based",
		"--rw", s.RW, "--bs", s.BS, "--qd", strconv.Itoa(s.QD), "--engine", s.Engine,
		"--runtime", runtime.String(), "--ramp", "1s", "--json"}
	if s.RW == "write" || s.RW == "randwrite" {
		args = append(args, "--destructive")
	}
	if s.RW == "write" {
		args = append(args, "--end-fsync")
	}
	return args
}

// refRun is one long reference run.
type refRun struct {
	Shape quickShape `json:"shape"`
	Args  []string   `json:"args"`
	Value float64    `json:"value"` // in Shape.Field
	WallS float64    `json:"wall_s"`
}

func (t *iomarkTool) runReference(ctx context.Context, mnt string, s quickShape, runtime time.Duration) (refRun, error) {
	args := refArgs(mnt, s, runtime)
	out, wall, err := t.exec(ctx, args)
	if err != nil {
		return refRun{}, err
	}
	j, err := parseJobResult(out)
	if err != nil {
		return refRun{}, err
	}
	v := j.IOPS
	if s.Field == "mb_per_s" {
		v = j.MBPerS
	}
	return refRun{Shape: s, Args: append([]string{"iomark"}, args...), Value: v, WallS: wall.Seconds()}, nil
}
