package profile

import (
	"testing"

	"github.com/iomark/iomark/internal/probe"
)

// The write budget rule: flash and drives iomark cannot tell keep quick's 512 MiB whatever
// their speed; SSDs and hard disks get their write tests' minimum time at the link's rate,
// between the flash cap and SSDWriteCap.
func TestWriteBudgetByClassAndSpeed(t *testing.T) {
	q := Quick()
	sec := 3 * (0.5 + 3*(1+0.25)) // three write tests: warm-up and three 1 s runs with ramps
	if got := q.minWriteSeconds(); got != sec {
		t.Fatalf("quick's write tests need %.2f s at least, want %.2f", got, sec)
	}
	at := func(mbps float64) int64 {
		b := q.FileBytes + int64(sec*mbps*1e6)
		return b - b%MiB
	}
	cases := []struct {
		class string
		link  float64 // MB/s, 0: unknown
		want  int64
	}{
		{probe.ClassMicroSD, 0, 512 * MiB},
		{probe.ClassMicroSD, 90, 512 * MiB},
		{probe.ClassEMMC, 400, 512 * MiB},
		{probe.ClassUSBFlash, 40, 512 * MiB},
		{probe.ClassUSBFlash, 1000, 512 * MiB}, // speed never raises a flash class's cap
		{"", 0, 512 * MiB},                     // unknown or unsure
		{"", 3500, 512 * MiB},
		{probe.ClassLoop, 0, 512 * MiB},
		{probe.ClassVirtio, 2000, 512 * MiB},
		{probe.ClassOther, 400, 512 * MiB},
		{probe.ClassUSBSSD, 400, at(400)},
		{probe.ClassUSBSSD, 0, at(400)}, // the usual USB 3 link
		{probe.ClassUSBSSD, 35, at(35)},
		{probe.ClassUSBSSD, 20, 512 * MiB}, // never below the flash cap
		{probe.ClassUSBHDD, 0, at(400)},
		{probe.ClassSATA, 550, at(550)},
		{probe.ClassSATASSD, 0, at(550)},
		{probe.ClassSATAHDD, 200, at(200)},
		{probe.ClassNVMe, 400, at(400)}, // Pi 5, PCIe 2.0 ×1
		{probe.ClassNVMe, 0, SSDWriteCap},
		{probe.ClassNVMe, 7000, SSDWriteCap},
	}
	for _, c := range cases {
		b := q.WriteBudget(DriveClass{Class: c.class, LinkMBPerS: c.link})
		if b.Bytes != c.want {
			t.Errorf("%q at %v MB/s: %d MiB, want %d MiB", c.class, c.link, b.Bytes/MiB, c.want/MiB)
		}
		if b.Why == "" {
			t.Errorf("%q at %v MB/s: no reason given", c.class, c.link)
		}
	}
	// A profile that mirrors a peer keeps its one budget on every drive.
	pb := PiBenchmarks()
	if b := pb.WriteBudget(DriveClass{Class: probe.ClassNVMe, LinkMBPerS: 3500}); b.Bytes != pb.MaxBytesWritten {
		t.Errorf("pibenchmarks on NVMe: %d MiB, want its peer-bound %d MiB", b.Bytes/MiB, pb.MaxBytesWritten/MiB)
	}
}

// ClassOf trusts a USB SSD only when a bridge or the drive's identity says what it is.
func TestClassOfTrustsOnlyEvidence(t *testing.T) {
	dev := func(class string) *probe.Device { return &probe.Device{Class: class} }
	cases := []struct {
		name string
		rep  *probe.Report
		want string
	}{
		{"no probe", nil, ""},
		{"microSD", &probe.Report{Device: dev(probe.ClassMicroSD)}, probe.ClassMicroSD},
		{"USB SSD by the queue flag alone", &probe.Report{Device: dev(probe.ClassUSBSSD), USB: &probe.USB{}}, ""},
		{"USB SSD behind a SATA bridge", &probe.Report{Device: dev(probe.ClassUSBSSD), USB: &probe.USB{Bridge: &probe.Bridge{Kind: "usb-sata"}}}, probe.ClassUSBSSD},
		{"USB SSD by its IDENTIFY", &probe.Report{Device: dev(probe.ClassUSBSSD), USB: &probe.USB{Drive: &probe.ATAIdentity{RotationRateRPM: 1}}}, probe.ClassUSBSSD},
		{"NVMe", &probe.Report{Device: dev(probe.ClassNVMe), CeilingMBPerS: 400}, probe.ClassNVMe},
	}
	for _, c := range cases {
		if got := ClassOf(c.rep).Class; got != c.want {
			t.Errorf("%s: class %q, want %q", c.name, got, c.want)
		}
	}
}

// A fast USB flash drive under the 512 MiB cap: its write runs are shortened to fit, but never
// below MinRunTime while one such run fits; an SSD's budget fits its minimum runs at its rate.
func TestMinRunTimeUnderTheBudget(t *testing.T) {
	var seqW Test
	for _, tc := range Quick().Tests {
		if tc.Name == "seq-write-1m" {
			seqW = tc
		}
	}
	allow := WriteAllowance(512*MiB, 128*MiB, 4, 6) // 256 MiB
	rate := 100e6                                   // a fast USB stick
	rb := RunBytes(seqW, RunState{WriteRate: rate, Allowance: allow, WarmUp: true})
	if want := int64(rate * seqW.MinRunTime.Seconds()); rb < want-int64(seqW.BlockSize) {
		t.Errorf("run bound %d MiB at 100 MB/s: shorter than %v (%d MiB)", rb/MiB, seqW.MinRunTime, want/MiB)
	}
	if rb+RampBytesFor(seqW, rb) > allow {
		t.Errorf("one run of %d MiB and its ramp exceed the %d MiB allowance", rb/MiB, allow/MiB)
	}
	// At 2 GB/s not even one 1 s run fits: the run is bounded by what fits, not by the floor.
	rb = RunBytes(seqW, RunState{WriteRate: 2e9, Allowance: allow, WarmUp: true})
	if rb+RampBytesFor(seqW, rb) > allow {
		t.Errorf("at 2 GB/s a run of %d MiB and its ramp exceed the %d MiB allowance", rb/MiB, allow/MiB)
	}
	// An emulated USB SSD (300 MB/s writes) on a USB 3 budget: three full 2 s runs fit.
	q := Quick()
	q.MaxBytesWritten = q.WriteBudget(DriveClass{Class: probe.ClassUSBSSD}).Bytes
	e := WorstCase(q, DriveModel{ReadMBPerS: 350, WriteMBPerS: 300, ReadIOPS: 20000, WriteIOPS: 15000})
	if e.BytesWritten > q.MaxBytesWritten {
		t.Errorf("quick on a USB SSD may write %d MiB, budget %d MiB", e.BytesWritten/MiB, q.MaxBytesWritten/MiB)
	}
	if n := e.Runs["seq-write-1m"]; n < 3 {
		t.Errorf("quick's sequential write on a USB SSD: %d runs within the budget, want 3", n)
	}
}
