package profile

import (
	"fmt"
	"time"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// AppClass is an SD Association Application Performance Class: the minimum random 4 KiB
// read and write IOPS and sustained sequential write a card bearing the mark must deliver.
type AppClass struct {
	Name           string
	ReadIOPS       float64
	WriteIOPS      float64
	SeqWriteMBPerS float64
}

// AppClasses are the classes of the SD Physical Layer specification. Sources: A1 — SD 5.1
// (SD Association announcement, Nov 2016; AnandTech "SD Card Association to classify IOPS
// performance", 10860; CNX Software 2017-02-13); A2 — SD 6.0 (Armbian documentation's class
// table: 4000 read / 2000 write 4k IOPS, 10 MB/s sustained). The spec's full test conditions
// (test area, pre-conditioning, the host's command queue and cache for A2) are in the
// members-only Part 1; the simplified specification only names the register field
// (SSR APP_PERF_CLASS), so iomark measures at the card's usual use: 4 KiB uniform random over
// a 512 MiB file at QD1 (and at QD32 for A2, which assumes command queueing), and 512 KiB
// sequential writes for 20 s.
var AppClasses = []AppClass{
	{Name: "A1", ReadIOPS: 1500, WriteIOPS: 500, SeqWriteMBPerS: 10},
	{Name: "A2", ReadIOPS: 4000, WriteIOPS: 2000, SeqWriteMBPerS: 10},
}

const (
	sdFileBytes = 512 * MiB
	sdRunTime   = 3 * time.Second
	sdBudget    = 15 * time.Second
	// SeqWriteSustained is the name of the a1/a2 sustained sequential write test.
	SeqWriteSustained = "seq-write-512k-sustained"
	// sdSeqWriteShare weighs the sustained sequential write's part of the byte budget
	// against each random write test's: it writes 20 s at the card's sequential rate.
	sdSeqWriteShare = 8
	// WarnAppClass is the code of the warnings the a1/a2 check adds to a record: the figures
	// against the class, and against the class the card claims.
	WarnAppClass = "app-class"
)

func sdTests(deep bool) []Test {
	t := func(name, label string, p engine.Pattern, qd int) Test {
		return Test{Name: name, Label: label, Peer: "SD Physical Layer spec, Application Performance Class",
			Pattern: p, BlockSize: 4 * KiB, QD: qd, Jobs: 1, Engine: engine.EngineAuto, Primary: PrimaryIOPS,
			RunTime: sdRunTime, WarmUp: 500 * time.Millisecond, Ramp: 250 * time.Millisecond, Budget: sdBudget, MinRuns: 3, MaxRuns: 10}
	}
	ts := []Test{
		t("rand-read-4k-qd1", "random read 4K QD1", engine.RandRead, 1),
		t("rand-write-4k-qd1", "random write 4K QD1", engine.RandWrite, 1),
	}
	if deep {
		ts = append(ts,
			t("rand-read-4k-qd32", "random read 4K QD32", engine.RandRead, 32),
			t("rand-write-4k-qd32", "random write 4K QD32", engine.RandWrite, 32))
	}
	return append(ts, Test{Name: SeqWriteSustained, Label: "sustained sequential write 512K",
		Peer: "SD Physical Layer spec, Application Performance Class", Pattern: engine.Write,
		BlockSize: 512 * KiB, QD: 1, Jobs: 1, Engine: engine.EnginePsync, EndFsync: true, Primary: PrimaryMBPerS,
		RunTime: 20 * time.Second, Budget: 25 * time.Second, MinRuns: 1, MaxRuns: 1, WriteShare: sdSeqWriteShare})
}

// A1 measures the figures of Application Performance Class 1 and compares them with it and
// with the class the card claims.
func A1() *Profile { return sdProfile(AppClasses[0], false) }

// A2 does the same for class 2, adding QD32 figures (A2 cards are rated with queueing).
func A2() *Profile { return sdProfile(AppClasses[1], true) }

func sdProfile(c AppClass, deep bool) *Profile {
	return &Profile{
		Name:      lower(c.Name),
		Title:     fmt.Sprintf("SD Application Performance Class %s: %.0f/%.0f IOPS, %.0f MB/s", c.Name, c.ReadIOPS, c.WriteIOPS, c.SeqWriteMBPerS),
		Source:    "SD Association Application Performance Class (SD 5.1 A1, SD 6.0 A2)",
		FileBytes: sdFileBytes, Tests: sdTests(deep),
		// The peer people run on a Pi to see a card's class: Storage.sh reads the class the
		// card claims in its SSR and measures its 4 KiB random reads and writes beside it.
		MaxBytesWritten: peerStorageSh.Bytes, Peer: peerStorageSh,
		Check: func(tests []record.Test, rep *probe.Report) []record.Warning {
			var out []record.Warning
			for _, note := range CheckAppClass(c, tests, claimedAppClass(rep)) {
				out = append(out, record.Warning{Code: WarnAppClass, Message: note})
			}
			return out
		},
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

func claimedAppClass(rep *probe.Report) string {
	if rep == nil || rep.SD == nil || rep.SD.AppClass == nil {
		return ""
	}
	return *rep.SD.AppClass
}

// CheckAppClass sets the measured figures against class c and against the class the card
// claims in its SSR (claimed: "", "A1", "A2"; "" when unknown or none). For random figures
// it takes the best queue depth measured, as the class is a minimum the card must reach.
func CheckAppClass(c AppClass, tests []record.Test, claimed string) []string {
	best := func(names ...string) (float64, bool) {
		v, ok := 0.0, false
		for _, t := range tests {
			for _, n := range names {
				if t.Name == n && t.Runs > 0 {
					v, ok = max(v, t.IOPS), true
				}
			}
		}
		return v, ok
	}
	var notes []string
	read, okR := best("rand-read-4k-qd1", "rand-read-4k-qd32")
	write, okW := best("rand-write-4k-qd1", "rand-write-4k-qd32")
	seq, okS := 0.0, false
	for _, t := range tests {
		if t.Name == SeqWriteSustained && t.Runs > 0 {
			seq, okS = t.MBPerS, true
		}
	}
	if !okR || !okW || !okS {
		return []string{fmt.Sprintf("%s check incomplete: not every figure was measured", c.Name)}
	}
	var short []string
	if read < c.ReadIOPS {
		short = append(short, fmt.Sprintf("random read %.0f IOPS < %.0f", read, c.ReadIOPS))
	}
	if write < c.WriteIOPS {
		short = append(short, fmt.Sprintf("random write %.0f IOPS < %.0f", write, c.WriteIOPS))
	}
	if seq < c.SeqWriteMBPerS {
		short = append(short, fmt.Sprintf("sustained sequential write %.1f MB/s < %.0f", seq, c.SeqWriteMBPerS))
	}
	meets := len(short) == 0
	switch {
	case meets:
		notes = append(notes, fmt.Sprintf("meets %s here: random read %.0f IOPS, random write %.0f IOPS, sustained write %.1f MB/s", c.Name, read, write, seq))
	default:
		notes = append(notes, fmt.Sprintf("falls short of %s here: %s", c.Name, joinSemi(short)))
	}
	switch {
	case claimed == "":
		notes = append(notes, "the card claims no application performance class in its SSR (or it could not be read)")
	case claimed == c.Name && !meets:
		notes = append(notes, fmt.Sprintf("the card claims %s in its SSR but does not reach it on this host (host, reader and filesystem limit what a card shows; see the link ceiling)", claimed))
	case claimed == c.Name:
		notes = append(notes, fmt.Sprintf("the card claims %s in its SSR, and reaches it", claimed))
	default:
		notes = append(notes, fmt.Sprintf("the card claims %s in its SSR; this profile checks %s", claimed, c.Name))
	}
	return notes
}

func joinSemi(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += "; "
		}
		out += x
	}
	return out
}
