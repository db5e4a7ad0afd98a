package profile

import (
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/engine"
)

// CrystalDiskMark's presets, from its source (hiyohiyo/CrystalDiskMark, MIT; read in the
// copies kept by its ports, e.g. BlizzardWyvern/BlizzardDiskMark):
//
//   - Default (DiskMarkDlg.cpp SettingsQueuesThreads case 0, SettingsDlg OnSetDefault):
//     SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1.
//   - NVMe SSD (case 1 "NVMe SSD Ver.8", OnSetNVMe8): SEQ1M Q8T1, SEQ128K Q32T1,
//     RND4K Q32T16, RND4K Q1T1.
//   - the third settings preset (SettingsDlg OnSetAta in the copy read): SEQ128K Q32T1,
//     SEQ128K Q1T1, RND4K Q32T1, RND4K Q1T1 — the set iomark calls cdm-flash, for USB flash
//     and SD cards whose controllers are tuned for 128 KiB transfers.
//
// Measure time 5 s per test (m_MeasureTime = 5, choices 5/10/20/30/60), 5 passes
// (m_IndexTestCount = 5, "default loop => 5"), test file 1 GiB (m_ValueTestSize = "1GiB"),
// random test data (m_TestData = 0). The interval between tests is 5 s in the dialog's
// defaults (m_IntervalTime = 5; the NVMe preset of one version sets 0); iomark rests
// cdmInterval between tests to let a drive flush, as CDM's interval does.
const (
	cdmFileBytes   = 1 * GiB
	cdmMeasureTime = 5 * time.Second
	cdmPasses      = 5
	cdmInterval    = 5 * time.Second
	// cdmMaxWritten bounds the profile on drives fast enough that time bounds little:
	// CrystalDiskMark writes 30 s of each write test at the drive's rate (peerCrystalDiskMark),
	// 135 GB on a 1.5 GB/s NVMe drive; iomark's runs stay within that time and this budget.
	cdmMaxWritten = 4 * GiB
)

// cdmCase is one row of a CDM preset: sequential or random, block size, queues, threads.
type cdmCase struct {
	seq             bool
	bs, qd, threads int
}

func (c cdmCase) label() string {
	kind, size := "RND", fmt.Sprintf("%dK", c.bs/KiB)
	if c.seq {
		kind = "SEQ"
	}
	if c.bs >= MiB {
		size = fmt.Sprintf("%dM", c.bs/MiB)
	}
	return fmt.Sprintf("%s%s Q%dT%d", kind, size, c.qd, c.threads)
}

// tests turns a preset into read and write tests named e.g. seq-read-1m-q8t1.
func cdmTests(cases []cdmCase) []Test {
	var ts []Test
	for _, c := range cases {
		for _, write := range []bool{false, true} {
			p, kind, op := engine.RandRead, "rand", "read"
			switch {
			case c.seq && write:
				p, kind, op = engine.Write, "seq", "write"
			case c.seq:
				p, kind = engine.Read, "seq"
			case write:
				p, op = engine.RandWrite, "write"
			}
			size := fmt.Sprintf("%dk", c.bs/KiB)
			if c.bs >= MiB {
				size = fmt.Sprintf("%dm", c.bs/MiB)
			}
			primary := PrimaryIOPS
			if c.seq {
				primary = PrimaryMBPerS
			}
			ts = append(ts, Test{
				Name:  fmt.Sprintf("%s-%s-%s-q%dt%d", kind, op, size, c.qd, c.threads),
				Label: c.label(), Peer: "CrystalDiskMark " + c.label() + " (DiskSpd)",
				Pattern: p, BlockSize: c.bs, QD: c.qd, Jobs: c.threads, Engine: engine.EngineAuto,
				Primary: primary, RunTime: cdmMeasureTime, WarmUp: time.Second, Ramp: 250 * time.Millisecond,
				Budget: time.Second + cdmPasses*(cdmMeasureTime+250*time.Millisecond), MinRuns: 3, MaxRuns: cdmPasses,
			})
		}
	}
	return ts
}

func cdmProfile(name, title string, cases []cdmCase) *Profile {
	return &Profile{Name: name, Title: title, Source: "CrystalDiskMark 8 presets (DiskMarkDlg.cpp, SettingsDlg.cpp)",
		FileBytes: cdmFileBytes, RestBetweenTests: cdmInterval, Tests: cdmTests(cases),
		MaxBytesWritten: cdmMaxWritten, Peer: peerCrystalDiskMark}
}

// CDM is CrystalDiskMark's default preset.
func CDM() *Profile {
	return cdmProfile("cdm", "CrystalDiskMark default: SEQ1M Q8T1/Q1T1, RND4K Q32T1/Q1T1", []cdmCase{
		{true, MiB, 8, 1}, {true, MiB, 1, 1}, {false, 4 * KiB, 32, 1}, {false, 4 * KiB, 1, 1}})
}

// CDMNVMe is CrystalDiskMark's NVMe SSD preset.
func CDMNVMe() *Profile {
	return cdmProfile("cdm-nvme", "CrystalDiskMark NVMe: SEQ1M Q8T1, SEQ128K Q32T1, RND4K Q32T16/Q1T1", []cdmCase{
		{true, MiB, 8, 1}, {true, 128 * KiB, 32, 1}, {false, 4 * KiB, 32, 16}, {false, 4 * KiB, 1, 1}})
}

// CDMFlash is CrystalDiskMark's 128 KiB preset (see the comment above).
func CDMFlash() *Profile {
	return cdmProfile("cdm-flash", "CrystalDiskMark 128K preset: SEQ128K Q32T1/Q1T1, RND4K Q32T1/Q1T1", []cdmCase{
		{true, 128 * KiB, 32, 1}, {true, 128 * KiB, 1, 1}, {false, 4 * KiB, 32, 1}, {false, 4 * KiB, 1, 1}})
}
