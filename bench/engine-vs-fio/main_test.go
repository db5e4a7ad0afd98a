package main

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPairRatios(t *testing.T) {
	r := rowResult{
		iomark: []sample{{IOPS: 110}, {IOPS: 90}, {IOPS: 50}},
		fio:    []sample{{IOPS: 100}, {IOPS: 100}},
	}
	if got, want := r.pairRatios(), []float64{1.1, 0.9}; !slices.Equal(got, want) {
		t.Errorf("pairRatios = %v, want %v (unpaired runs left out)", got, want)
	}
}

func TestParseIomarkJSON(t *testing.T) {
	tests := []struct {
		name, out, engine, wantErr string
	}{
		{"ok", `{"engine":"psync","direct":true,"iops":1000,"ios":5000,"cpu":{"usr_s":0.1,"sys_s":0.2}}`, "psync", ""},
		{"fell back", `{"engine":"psync","direct":true,"iops":1000,"ios":5000,"cpu":{"usr_s":0.1,"sys_s":0.2}}`, "io_uring", "asked for"},
		{"buffered", `{"engine":"psync","direct":false,"iops":1000,"ios":5000,"cpu":{"usr_s":0.1,"sys_s":0.2}}`, "psync", "O_DIRECT"},
		{"no cpu", `{"engine":"psync","direct":true,"iops":1000,"ios":5000}`, "psync", "lacks"},
		{"no I/O", `{"engine":"psync","direct":true,"iops":0,"ios":0,"cpu":{"usr_s":0,"sys_s":0}}`, "psync", "no I/O"},
		{"not JSON", "iomark: open /dev/loop9: no such device", "psync", "parse"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, err := parseIomarkJSON([]byte(tt.out), tt.engine)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if *j.IOPS != 1000 || *j.IOs != 5000 || math.Abs(j.CPU.UsrS+j.CPU.SysS-0.3) > 1e-9 {
					t.Errorf("parsed %+v", j)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestToolArgs(t *testing.T) {
	o := options{runtime: 5 * time.Second, ramp: time.Second}
	tests := []struct {
		w                workload
		wantFio, wantIom string
	}{
		{workloads[0],
			"--ioengine=psync --direct=1 --rw=randread --bs=4k --iodepth=1 --numjobs=1 --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 1 --engine psync --runtime 5s --ramp 1s --json"},
		{workloads[1],
			"--ioengine=io_uring --fixedbufs --registerfiles --direct=1 --rw=randread --bs=4k --iodepth=32 --numjobs=1 --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --rw randread --bs 4k --qd 32 --engine io_uring --runtime 5s --ramp 1s --json"},
		{workloads[2],
			"--ioengine=psync --direct=1 --rw=randwrite --bs=4k --iodepth=1 --numjobs=1 --time_based --runtime=5 --ramp_time=1 --filename=/dev/loop7 --name=x",
			"job --target /dev/loop7 --destructive --confirm /dev/loop7 --rw randwrite --bs 4k --qd 1 --engine psync --runtime 5s --ramp 1s --json"},
	}
	for _, tt := range tests {
		if got := strings.Join(fioArgs("/dev/loop7", tt.w, o), " "); got != tt.wantFio {
			t.Errorf("%s fio args:\n got %s\nwant %s", tt.w.name, got, tt.wantFio)
		}
		if got := strings.Join(iomarkArgs("/dev/loop7", tt.w, o), " "); got != tt.wantIom {
			t.Errorf("%s iomark args:\n got %s\nwant %s", tt.w.name, got, tt.wantIom)
		}
	}
}
