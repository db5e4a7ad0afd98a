package report

import (
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// pubColumn maps one column of the published results to the iomark test that measures the
// closest thing, and converts the iomark figure into the column's unit so that only like units
// are ever set side by side. The method notes are what a reader must know before trusting a
// ratio.
type pubColumn struct {
	column string // refdata CSV column
	label  string // what the published figure measured, for people
	unit   string // the unit the published figure is read in
	method string // the published method, as SOURCES.md states it
	get    func(refdata.Result) refdata.Figure
	// match finds the iomark test: a peer-method test (same method) first, else the closest
	// iomark workload; sameMethod is false for the fallback.
	match func(*record.Run) (t *record.Test, sameMethod bool)
	// ours converts an iomark figure into unit.
	ours func(record.Test) float64
	// differs says how iomark's fallback test differs from the published method.
	differs string
	// skip leaves out rows whose figure this comparison must not use; nil keeps all.
	skip func(refdata.Result) bool
}

const (
	mib = 1 << 20
	kib = 1 << 10
)

// pubColumns is the mapping table. Units: hdparm prints MiB/s as "MB/sec" (hdparm.c counts
// 2 MiB buffers, TIMING_BUF_BYTES = 2*1024*1024); GNU dd prints MB/s (10^6); iozone prints
// kB/s meaning KiB/s (1024 bytes). Where a source printed MB/s derived from iozone, how it
// converted (÷1000 or ÷1024) is not stated: the note says so (the difference is under 5%).
var pubColumns = []pubColumn{
	{
		column: "hdparm_read_mbps", label: "hdparm -t buffered read", unit: "MiB/s",
		method: "hdparm -t: buffered sequential reads of the raw device, 2 MiB per read, about 3 s",
		get:    func(r refdata.Result) refdata.Figure { return r.HdparmReadMBps },
		match:  matchPeerOr("hdparm-read", "read", mib, 0),
		ours:   func(t record.Test) float64 { return t.MBPerS * 1e6 / mib },
		differs: "iomark reads a file with O_DIRECT in 1 MiB blocks; hdparm reads the raw device " +
			"through the page cache with read-ahead: compared in MiB/s, the unit hdparm prints as MB/sec",
	},
	{
		column: "dd_write_mbps", label: "dd write", unit: "MB/s",
		method: "dd: buffered writes from /dev/zero with a final fsync (pidramble: bs=8k count=50k conv=fsync)",
		get:    func(r refdata.Result) refdata.Figure { return r.DDWriteMBps },
		// A dd without conv=fsync or sync measures the page cache (refdata marks it "no sync").
		skip:  func(r refdata.Result) bool { return r.DDWithoutSync() },
		match: matchPeerOr("dd-write", "write", mib, 0),
		ours:  func(t record.Test) float64 { return t.MBPerS },
		differs: "iomark writes incompressible data with O_DIRECT in 1 MiB blocks; dd writes zeros through the " +
			"page cache in 8 KiB blocks and fsyncs once at the end",
	},
	{
		column: "rand4k_read_mbps", label: "4K random read (iozone)", unit: "MB/s",
		method: "iozone -e -I -a -s 100M -r 4k -i 0 -i 1 -i 2: O_DIRECT 4 KiB random reads, one at a time",
		get:    func(r refdata.Result) refdata.Figure { return r.Rand4kReadMBps },
		match:  matchPeerOr("", "randread", 4*kib, 1),
		ours:   func(t record.Test) float64 { return t.MBPerS },
		differs: "same workload (O_DIRECT 4 KiB random reads at QD1) on a different file size; the source " +
			"converted iozone's KiB/s to MB/s without saying whether by 1000 or 1024",
	},
	{
		column: "rand4k_write_mbps", label: "4K random write (iozone)", unit: "MB/s",
		method: "iozone -e -I -a -s 100M -r 4k -i 0 -i 1 -i 2: O_DIRECT 4 KiB random writes, one at a time",
		get:    func(r refdata.Result) refdata.Figure { return r.Rand4kWriteMBps },
		match:  matchPeerOr("", "randwrite", 4*kib, 1),
		ours:   func(t record.Test) float64 { return t.MBPerS },
		differs: "same workload (O_DIRECT 4 KiB random writes at QD1) on a different file size; the source " +
			"converted iozone's KiB/s to MB/s without saying whether by 1000 or 1024",
	},
	{
		column: "rand4k_read_kbps_iozone", label: "4K random read (iozone)", unit: "KiB/s",
		method: "iozone 4 KiB random read, printed as a bare number read as iozone kB/s (KiB/s)",
		get:    func(r refdata.Result) refdata.Figure { return r.Rand4kReadKBpsIozone },
		match:  matchPeerOr("", "randread", 4*kib, 1),
		ours:   func(t record.Test) float64 { return t.MBPerS * 1e6 / kib },
		differs: "O_DIRECT 4 KiB random reads at QD1 on both sides; the published unit is inferred " +
			"(bare numbers read as iozone KiB/s), iomark's figure is converted to KiB/s",
	},
	{
		column: "rand4k_write_kbps_iozone", label: "4K random write (iozone)", unit: "KiB/s",
		method: "iozone 4 KiB random write, printed as a bare number read as iozone kB/s (KiB/s)",
		get:    func(r refdata.Result) refdata.Figure { return r.Rand4kWriteKBpsIozone },
		match:  matchPeerOr("", "randwrite", 4*kib, 1),
		ours:   func(t record.Test) float64 { return t.MBPerS * 1e6 / kib },
		differs: "O_DIRECT 4 KiB random writes at QD1 on both sides; the published unit is inferred " +
			"(bare numbers read as iozone KiB/s), iomark's figure is converted to KiB/s",
	},
	{
		column: "seq4k_read_kbps_iozone", label: "4K sequential read (iozone)", unit: "KiB/s",
		method: "iozone 4 KiB sequential read, printed as a bare number read as iozone kB/s (KiB/s)",
		get:    func(r refdata.Result) refdata.Figure { return r.Seq4kReadKBpsIozone },
		match:  matchPeerOr("", "read", 4*kib, 1),
		ours:   func(t record.Test) float64 { return t.MBPerS * 1e6 / kib },
		differs: "O_DIRECT 4 KiB sequential reads at QD1 on both sides; the published unit is inferred " +
			"(bare numbers read as iozone KiB/s), iomark's figure is converted to KiB/s",
	},
	{
		column: "seq4k_write_kbps_iozone", label: "4K sequential write (iozone)", unit: "KiB/s",
		method: "iozone 4 KiB sequential write, printed as a bare number read as iozone kB/s (KiB/s)",
		get:    func(r refdata.Result) refdata.Figure { return r.Seq4kWriteKBpsIozone },
		match:  matchPeerOr("", "write", 4*kib, 1),
		ours:   func(t record.Test) float64 { return t.MBPerS * 1e6 / kib },
		differs: "O_DIRECT 4 KiB sequential writes at QD1 on both sides; the published unit is inferred " +
			"(bare numbers read as iozone KiB/s), iomark's figure is converted to KiB/s",
	},
	// seq4k_rewrite_kbps_iozone has no iomark counterpart: iozone's rewrite overwrites a file it
	// has just written, which no iomark profile does.
}

// matchPeerOr returns the test run with the peer's own method (op peerOp) when the run has one,
// else the single-job test of the given op and block size at queue depth qd, or at the lowest
// queue depth the run has when qd is 0.
func matchPeerOr(peerOp, op string, bs, qd int) func(*record.Run) (*record.Test, bool) {
	return func(r *record.Run) (*record.Test, bool) {
		if peerOp != "" {
			for i := range r.Tests {
				if r.Tests[i].Op == peerOp {
					return &r.Tests[i], true
				}
			}
		}
		var best *record.Test
		for i := range r.Tests {
			t := &r.Tests[i]
			// A sustained write's figure spans gigabytes and its cliff: unlike any published test.
			if t.Op != op || t.BS != bs || t.Jobs > 1 || t.Sustained != nil || qd > 0 && t.QD != qd {
				continue
			}
			if best == nil || t.QD < best.QD {
				best = t
			}
		}
		// With no peer op, the published method is QD1 O_DIRECT iozone: the same as ours.
		return best, best != nil && peerOp == ""
	}
}

// sourceUnitNotes flags sources whose tables print no unit (SOURCES.md): their figures are
// compared under the unit refdata files them in, and the comparison says so.
var sourceUnitNotes = map[string]string{
	"geerling-2020-usb":     "the source's table prints no units; refdata files its figures as MB/s",
	"chambers-storage-2019": "the source prints dd in MB/s and the other columns as bare numbers read as iozone kB/s",
}

// boardFamily groups boards whose storage paths behave alike: a Raspberry Pi generation shares
// its SoC and SD host (Pi 4, Pi 400 and CM4 all use BCM2711's emmc2). Empty when unknown.
func boardFamily(model string) string {
	m := strings.ToLower(model)
	families := []struct{ contains, family string }{ // longer names first
		{"raspberry pi 500", "Raspberry Pi 5"}, {"compute module 5", "Raspberry Pi 5"}, {"raspberry pi 5", "Raspberry Pi 5"},
		{"raspberry pi 400", "Raspberry Pi 4"}, {"compute module 4", "Raspberry Pi 4"}, {"raspberry pi 4", "Raspberry Pi 4"},
		{"compute module 3", "Raspberry Pi 3"}, {"raspberry pi 3", "Raspberry Pi 3"},
		{"raspberry pi 2", "Raspberry Pi 2"},
	}
	for _, f := range families {
		if strings.Contains(m, f.contains) {
			return f.family
		}
	}
	return ""
}

// publishedBoardFamily reads refdata's canonical board names: a row measured with the board
// or its SD bus overclocked is not comparable with a stock run and belongs to no family.
func publishedBoardFamily(p refdata.Result) string {
	if p.Overclocked {
		return ""
	}
	return boardFamily(p.Board)
}

// storageClasses maps iomark's device class to refdata's storage classes. A USB SSD splits by
// the bridge kind when linkdb named it; native NVMe, eMMC and SATA map to refdata's classes of
// the same name.
func storageClasses(r *record.Run) []string {
	if r.Device == nil {
		return nil
	}
	switch r.Device.Class {
	case probe.ClassMicroSD:
		return []string{"microsd"}
	case probe.ClassUSBFlash:
		return []string{"usb-flash"}
	case probe.ClassNVMe:
		return []string{"nvme"}
	case probe.ClassEMMC:
		return []string{"emmc"}
	case probe.ClassSATA, probe.ClassSATASSD, probe.ClassSATAHDD:
		// refdata's sata rows do not split SSDs from HDDs.
		return []string{"sata"}
	case probe.ClassUSBSSD:
		if r.USB != nil && r.USB.Bridge != nil {
			switch r.USB.Bridge.Kind {
			case "usb-nvme":
				return []string{"usb-ssd-nvme"}
			case "usb-sata":
				return []string{"usb-ssd-sata", "msata-usb"}
			}
		}
		// Bridge unknown: every USB SSD class, with the published rows whose source did not
		// state the bridge either (refdata's usb-ssd).
		return []string{"usb-ssd-sata", "usb-ssd-nvme", "msata-usb", "usb-ssd"}
	}
	return nil
}

// peerSet is the published rows comparable with a run, and why.
type peerSet struct {
	Family  string // board family of the run; empty when unknown
	Classes []string
	Rows    []refdata.Result
}

// Scope describes the set for people: "Raspberry Pi 4, microsd".
func (p peerSet) Scope() string {
	fam := p.Family
	if fam == "" {
		fam = "unknown board"
	}
	return fam + ", " + strings.Join(p.Classes, "/")
}

// SourceIDs lists the sources of the rows, in first-seen order.
func (p peerSet) SourceIDs() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range p.Rows {
		if !seen[r.SourceID] {
			seen[r.SourceID] = true
			out = append(out, r.SourceID)
		}
	}
	return out
}

// comparablePublished keeps the published rows of the run's board family and storage class
// that print at least one figure of pubColumns (a row with only, say, a maker's IOPS or a
// PiBenchmarks score has nothing to set beside the run).
func comparablePublished(r *record.Run, published []refdata.Result) peerSet {
	ps := peerSet{Classes: storageClasses(r)}
	if r.Host != nil {
		ps.Family = boardFamily(r.Host.Model)
	}
	if ps.Family == "" || len(ps.Classes) == 0 {
		return ps
	}
	for _, p := range published {
		if publishedBoardFamily(p) != ps.Family || !hasPubColumnFigure(p) {
			continue
		}
		for _, c := range ps.Classes {
			if p.StorageClass == c {
				ps.Rows = append(ps.Rows, p)
				break
			}
		}
	}
	return ps
}

// hasPubColumnFigure reports whether the row prints a figure in one of pubColumns.
func hasPubColumnFigure(p refdata.Result) bool {
	for _, col := range pubColumns {
		if col.get(p).Value != nil {
			return true
		}
	}
	return false
}

// pubFigure is one published column set against the run.
type pubFigure struct {
	col        pubColumn
	test       *record.Test
	sameMethod bool
	oursValue  float64 // in col.unit
	drives     []pubDrive
}

type pubDrive struct {
	row   refdata.Result
	value float64 // in col.unit, as printed
}

// publishedFigures pairs every mapped column that the run and at least one peer have.
func publishedFigures(r *record.Run, ps peerSet) []pubFigure {
	var out []pubFigure
	for _, col := range pubColumns {
		t, same := col.match(r)
		if t == nil {
			continue
		}
		f := pubFigure{col: col, test: t, sameMethod: same, oursValue: col.ours(*t)}
		for _, row := range ps.Rows {
			if col.skip != nil && col.skip(row) {
				continue
			}
			if v := col.get(row).Value; v != nil {
				f.drives = append(f.drives, pubDrive{row: row, value: *v})
			}
		}
		if len(f.drives) > 0 {
			out = append(out, f)
		}
	}
	return out
}
