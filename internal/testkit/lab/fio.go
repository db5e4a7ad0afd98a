package lab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// FioResult is what one fio run measured, summed over its jobs (pass --group_reporting for
// several jobs: latency percentiles are taken from the first job entry). Rates are over the
// measured window (after --ramp_time); bytes/s are bytes, not KiB.
type FioResult struct {
	ReadIOPS, WriteIOPS           float64
	ReadBytesPerS, WriteBytesPerS float64
	ReadIOs, WriteIOs             int64
	RuntimeS                      float64 // the job's measured run time (job_runtime)

	// Completion latency (fio's clat: from submission to completion, without submission
	// time) percentiles and total latency (lat: submission included) mean, in µs. For
	// io_uring fio starts clat's clock only once io_uring_enter has returned, so clat leaves
	// out the submitting call. The total latency's percentiles (LatP50US, LatP99US) are
	// there only when fio ran with --lat_percentiles=1; 0 otherwise.
	ReadClatP50US, ReadClatP99US   float64
	WriteClatP50US, WriteClatP99US float64
	ReadLatMeanUS, WriteLatMeanUS  float64
	ReadLatP50US, ReadLatP99US     float64
	WriteLatP50US, WriteLatP99US   float64

	// CPU fio reports for its job threads over the measured window: usr_cpu and sys_cpu are
	// percentages of job_runtime, turned back into seconds here.
	JobCPUUsrS, JobCPUSysS float64

	// What the whole fio process tree cost, measured by the caller: wall-clock from start to
	// exit, user+system CPU of fio and its job processes (rusage, ramp and set-up included),
	// and the largest resident set among them.
	WallS        float64
	ProcCPUS     float64
	PeakRSSBytes int64

	FioVersion string          // "fio-3.33"
	Raw        json.RawMessage // fio's JSON as printed
}

// fioJSON is the part of fio's --output-format=json that FioResult needs (fio 3.x).
type fioJSON struct {
	Version string `json:"fio version"`
	Jobs    []struct {
		Name         string  `json:"jobname"`
		Error        int     `json:"error"`
		JobRuntimeMS float64 `json:"job_runtime"`
		UsrCPUPct    float64 `json:"usr_cpu"`
		SysCPUPct    float64 `json:"sys_cpu"`
		Read         fioDirJSON
		Write        fioDirJSON
	} `json:"jobs"`
}

type fioDirJSON struct {
	IOPS      float64 `json:"iops"`
	BwBytes   float64 `json:"bw_bytes"`
	IOBytes   int64   `json:"io_bytes"`
	RuntimeMS float64 `json:"runtime"`
	TotalIOs  int64   `json:"total_ios"`
	ClatNS    struct {
		Percentile map[string]float64 `json:"percentile"`
	} `json:"clat_ns"`
	LatNS struct {
		Mean       float64            `json:"mean"`
		Percentile map[string]float64 `json:"percentile"`
	} `json:"lat_ns"`
}

// ParseFioJSON reads fio's --output-format=json output. Lines fio prints before the JSON
// object (warnings such as "fio: ...") are skipped. A job that reports an error is an error.
func ParseFioJSON(out []byte) (*FioResult, error) {
	raw := jsonObject(out)
	if raw == nil {
		return nil, fmt.Errorf("lab: no JSON object in fio's output: %.200q", out)
	}
	var parsed fioJSON
	if err := json.Unmarshal(raw, &parsed); err != nil {
		return nil, fmt.Errorf("lab: parse fio JSON: %w", err)
	}
	if len(parsed.Jobs) == 0 {
		return nil, errors.New("lab: fio's JSON has no jobs")
	}
	r := &FioResult{FioVersion: parsed.Version, Raw: json.RawMessage(raw)}
	for i, j := range parsed.Jobs {
		if j.Error != 0 {
			return r, fmt.Errorf("lab: fio job %q failed with error %d", j.Name, j.Error)
		}
		runtimeMS := j.JobRuntimeMS
		if runtimeMS == 0 {
			runtimeMS = max(j.Read.RuntimeMS, j.Write.RuntimeMS)
		}
		r.RuntimeS = max(r.RuntimeS, runtimeMS/1000)
		r.JobCPUUsrS += j.UsrCPUPct / 100 * runtimeMS / 1000
		r.JobCPUSysS += j.SysCPUPct / 100 * runtimeMS / 1000
		r.ReadIOPS += j.Read.IOPS
		r.WriteIOPS += j.Write.IOPS
		r.ReadBytesPerS += j.Read.BwBytes
		r.WriteBytesPerS += j.Write.BwBytes
		r.ReadIOs += j.Read.TotalIOs
		r.WriteIOs += j.Write.TotalIOs
		if i == 0 {
			r.ReadClatP50US = j.Read.ClatNS.Percentile["50.000000"] / 1000
			r.ReadClatP99US = j.Read.ClatNS.Percentile["99.000000"] / 1000
			r.WriteClatP50US = j.Write.ClatNS.Percentile["50.000000"] / 1000
			r.WriteClatP99US = j.Write.ClatNS.Percentile["99.000000"] / 1000
			r.ReadLatMeanUS = j.Read.LatNS.Mean / 1000
			r.WriteLatMeanUS = j.Write.LatNS.Mean / 1000
			r.ReadLatP50US = j.Read.LatNS.Percentile["50.000000"] / 1000
			r.ReadLatP99US = j.Read.LatNS.Percentile["99.000000"] / 1000
			r.WriteLatP50US = j.Write.LatNS.Percentile["50.000000"] / 1000
			r.WriteLatP99US = j.Write.LatNS.Percentile["99.000000"] / 1000
		}
	}
	return r, nil
}

// jsonObject returns out from the first line that opens a JSON object.
func jsonObject(out []byte) []byte {
	for rest := out; len(rest) > 0; {
		if trimmed := bytes.TrimLeft(rest, " \t"); len(trimmed) > 0 && trimmed[0] == '{' {
			return bytes.TrimSpace(trimmed)
		}
		nl := bytes.IndexByte(rest, '\n')
		if nl < 0 {
			break
		}
		rest = rest[nl+1:]
	}
	return nil
}

// IOs is the number of I/Os fio measured, reads and writes.
func (r *FioResult) IOs() int64 { return r.ReadIOs + r.WriteIOs }

// IOPS is reads plus writes per second.
func (r *FioResult) IOPS() float64 { return r.ReadIOPS + r.WriteIOPS }
