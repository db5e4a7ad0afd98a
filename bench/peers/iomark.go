package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"

	"github.com/iomark/iomark/bench/internal/benchkit"
	"github.com/iomark/iomark/internal/record"
)

// runRecord is the part of `iomark run --json` (the result record) the bench reads.
type runRecord struct {
	Profile      string           `json:"profile"`
	DurationS    float64          `json:"duration_s"`
	BytesWritten int64            `json:"bytes_written"`
	Tests        []runTest        `json:"tests"`
	Scores       runScores        `json:"scores"`
	Warnings     []record.Warning `json:"warnings"`
	WallS        float64          `json:"-"`
	Args         []string         `json:"-"`
}

type runTest struct {
	Name    string  `json:"name"`
	IOPS    float64 `json:"iops"`
	MBPerS  float64 `json:"mb_per_s"`
	MiBPerS float64 `json:"mib_per_s"`
	CI95Pct float64 `json:"ci95_pct"`
	Runs    int     `json:"runs"`
	Noisy   bool    `json:"noisy"`
}

type runScores struct {
	Pibenchmarks *int `json:"pibenchmarks"`
}

// field is the named figure of t, in the unit its record key names.
func (t runTest) field(name string) (float64, error) {
	switch name {
	case "iops":
		return t.IOPS, nil
	case "mb_per_s":
		return t.MBPerS, nil
	case "mib_per_s":
		return t.MiBPerS, nil
	}
	return 0, fmt.Errorf("unknown record field %q", name)
}

func (r *runRecord) test(name string) (runTest, bool) {
	for _, t := range r.Tests {
		if t.Name == name {
			return t, true
		}
	}
	return runTest{}, false
}

func parseRunRecord(out []byte) (*runRecord, error) {
	var r runRecord
	if err := json.Unmarshal(bytes.TrimSpace(out), &r); err != nil {
		return nil, fmt.Errorf("parse iomark run JSON: %w (output: %.200q)", err, out)
	}
	if len(r.Tests) == 0 {
		return nil, fmt.Errorf("iomark run JSON has no tests: %.200q", out)
	}
	return &r, nil
}

// iomarkTool is the iomark binary under test.
type iomarkTool struct{ *benchkit.Iomark }

// prepareIomark takes the binary at path, or builds ./cmd/iomark of this module, once each
// of needs is met.
func prepareIomark(ctx context.Context, path string, needs ...func() error) (*iomarkTool, error) {
	b, err := benchkit.Start(ctx, path, "peers-", logf, needs...)
	if err != nil {
		return nil, err
	}
	return &iomarkTool{b}, nil
}

// runProfile runs `iomark run MNT --profile P --json --no-save` and times it from outside.
func (t *iomarkTool) runProfile(ctx context.Context, mnt, profile string) (*runRecord, error) {
	args := []string{"run", mnt, "--profile", profile, "--json", "--no-save"}
	out, wall, err := t.exec(ctx, args)
	if err != nil {
		return nil, err
	}
	r, err := parseRunRecord(out)
	if err != nil {
		return nil, err
	}
	r.WallS, r.Args = wall.Seconds(), append([]string{"iomark"}, args...)
	return r, nil
}

func (t *iomarkTool) exec(ctx context.Context, args []string) ([]byte, time.Duration, error) {
	cmd := exec.CommandContext(ctx, t.Path, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if err != nil {
		return nil, wall, fmt.Errorf("iomark %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return stdout.Bytes(), wall, nil
}

// jobResult is the part of `iomark job --json` (docs/job-json.md) the reference reads.
type jobResult struct {
	IOPS   float64 `json:"iops"`
	MBPerS float64 `json:"mb_per_s"`
	Engine string  `json:"engine"`
	Direct bool    `json:"direct"`
}

func parseJobResult(out []byte) (jobResult, error) {
	var j jobResult
	if err := json.Unmarshal(bytes.TrimSpace(out), &j); err != nil {
		return j, fmt.Errorf("parse iomark job JSON: %w (output: %.200q)", err, out)
	}
	if !j.Direct || j.IOPS <= 0 {
		return j, fmt.Errorf("iomark job did not measure O_DIRECT I/O: %.200q", out)
	}
	return j, nil
}
