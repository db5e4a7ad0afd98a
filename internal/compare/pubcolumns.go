package compare

import (
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// pubColumn maps one figure column of the published results (internal/refdata, SOURCES.md
// "Columns and units") to what iomark measured the same way, or failing that the closest way,
// and compares the two in the column's unit only. Every figure column is either here or in
// notCompared (TestEveryPublishedColumnIsAccounted).
type pubColumn struct {
	column string // refdata CSV column
	label  string // what the published figure measured, for people
	unit   string // the unit the comparison is made in: MB/s, MiB/s, KiB/s, IOPS or points
	method string // the published method, as SOURCES.md states it
	// candidates are tried in order; the first the run has is compared.
	candidates []candidate
	// skip leaves out rows whose figure must not be used; nil keeps all.
	skip func(refdata.Result) bool
	// rowFactor converts a row's figure as printed into unit (1 when nil): the iozone "MB/s"
	// columns hold MiB/s in rows whose script divided iozone's kB/s by 1024.
	rowFactor func(refdata.Result) float64
	// rowNote says what rowFactor did, for the reader.
	rowNote string
}

// candidate is one way a run may hold the published figure: a test (or the run's score) found
// by find, compared as the same method or not, with what a reader must know.
type candidate struct {
	find func(*record.Run) (ours, bool)
	same bool
	note string
}

// ours is what the run sets beside a published column.
type ours struct {
	name string       // the iomark test, or "pibenchmarks score"
	test *record.Test // nil for a score
}

// in is the figure of o in unit.
func (o ours) in(unit string, r *record.Run) float64 {
	if o.test == nil {
		if r.Scores.Pibenchmarks != nil {
			return float64(*r.Scores.Pibenchmarks)
		}
		return 0
	}
	t := o.test
	switch unit {
	case "MiB/s":
		return t.MBPerS * 1e6 / mib
	case "KiB/s":
		return t.MBPerS * 1e6 / kib
	case "IOPS":
		return t.IOPS
	}
	return t.MBPerS
}

const (
	mib = 1 << 20
	kib = 1 << 10
)

// byName finds the test of a peer-compatible profile by its stable name (docs/methodology.md):
// hdparm-read, dd-write-4k, fio-rand-read-4k-qd64 … exist only in the pibenchmarks profile.
func byName(name string) func(*record.Run) (ours, bool) {
	return func(r *record.Run) (ours, bool) {
		if t := r.TestByName(name); t != nil {
			return ours{t.Name, t}, true
		}
		return ours{}, false
	}
}

// queue depth rules for direct.
const (
	qdOne     = 1  // queue depth 1 only, as iozone issues its I/O
	qdLowest  = 0  // the lowest the run has
	qdDeepest = -1 // the deepest the run has
)

// fioQDFloor is the shallowest queue set beside Storage.sh's fio QD64 IOPS: quick's and cdm's
// QD32. A QD1 test is not: on a drive with a command queue (A2 cards, USB SSDs, NVMe) QD1 gives
// a fraction of the QD64 IOPS, so its ratio would rank the queue depth, not the drive.
const fioQDFloor = 32

// deepest finds the deepest single-job O_DIRECT test of op at block size bs whose queue is at
// least minQD deep.
func deepest(op string, bs, minQD int) func(*record.Run) (ours, bool) {
	find := direct(op, bs, false, qdDeepest)
	return func(r *record.Run) (ours, bool) {
		o, ok := find(r)
		if !ok || o.test.QD < minQD {
			return ours{}, false
		}
		return o, true
	}
}

// direct finds the single-job O_DIRECT test of op at block size bs (at least bs when atLeast)
// with the queue depth rule qd. A buffered test is never taken for an O_DIRECT figure, nor a
// sustained write for any published one (its figure spans gigabytes and its cache cliff).
func direct(op string, bs int, atLeast bool, qd int) func(*record.Run) (ours, bool) {
	return func(r *record.Run) (ours, bool) {
		var best *record.Test
		for i := range r.Tests {
			t := &r.Tests[i]
			sizeOK := t.BS == bs || atLeast && t.BS > bs
			if t.Op != op || !sizeOK || !t.Direct || t.Jobs > 1 || t.Sustained != nil || qd == qdOne && t.QD != 1 {
				continue
			}
			switch {
			case best == nil,
				qd == qdDeepest && t.QD > best.QD,
				qd != qdDeepest && t.QD < best.QD:
				best = t
			}
		}
		if best == nil {
			return ours{}, false
		}
		return ours{best.Name, best}, true
	}
}

// pibScore is the run's PiBenchmarks score, as the pibenchmarks profile computes it.
func pibScore(r *record.Run) (ours, bool) {
	return ours{name: "pibenchmarks score"}, r.Scores.Pibenchmarks != nil
}

// iozoneMiB converts an iozone "MB/s" figure to MB/s: rows whose source divided iozone's kB/s
// by 1024 (sbc-reviews' disk-benchmark.sh since May 2024) or printed "MiB/s" hold MiB/s.
func iozoneMiB(r refdata.Result) float64 {
	if r.IozoneKBDivisor == "1024" || r.IozoneUnitPrinted == "MiB/s" {
		return mib / 1e6
	}
	return 1
}

const iozoneMiBNote = "rows whose script divided iozone's kB/s by 1024 (or printed MiB/s) are MiB/s and are converted to MB/s (×1.048576) to be ranked; the others are MB/s as printed, their conversion unstated"

// Notes shared by several columns.
const (
	noteIozoneSame = "the same workload (O_DIRECT, one I/O at a time) on a different file size"
	noteIozoneMB   = noteIozoneSame + "; a row that does not say how it turned iozone's kB/s into MB/s (÷1000 or ÷1024, under 5% apart) is taken as printed"
	noteOverwrite  = "iomark writes over a test file laid out before the test, as iozone's rewrite pass does; iozone's first write pass also allocates the file's blocks"
	noteFioQD      = "fio ran at QD64; iomark's deepest single-job 4 KiB random test is compared only at QD32 or deeper (quick's and cdm's QD32): a card with one command queue gains nothing past a few, an NVMe drive may"
)

// pubColumns is the mapping table, in the order comparisons print. Units: hdparm prints MiB/s
// as "MB/sec" (hdparm.c counts 2 MiB buffers, TIMING_BUF_BYTES = 2*1024*1024); GNU dd and fio
// print MB/s (10^6); iozone prints kB/s meaning KiB/s.
var pubColumns = []pubColumn{
	{
		column: "hdparm_read_mbps", label: "hdparm -t buffered read", unit: "MiB/s",
		method: "hdparm -t: buffered sequential reads of the raw device, 2 MiB per read, about 3 s",
		candidates: []candidate{
			{byName("hdparm-read"), true, "the pibenchmarks profile's hdparm-read reads the device as hdparm -t does (buffered, 2 MiB, the cache dropped first); compared in MiB/s, the unit hdparm prints as MB/sec"},
			{direct("read", mib, false, qdLowest), false, "iomark reads a file with O_DIRECT in 1 MiB blocks; hdparm reads the raw device through the page cache with read-ahead: compared in MiB/s, the unit hdparm prints as MB/sec"},
		},
	},
	{
		column: "hdparm_direct_read_mbps", label: "hdparm -t --direct read", unit: "MiB/s",
		method: "hdparm -t --direct: O_DIRECT sequential reads of the raw device, 2 MiB per read, about 3 s (PiBenchmarks' \"Disk Read\")",
		candidates: []candidate{
			{direct("read", mib, true, qdOne), false, "both read with O_DIRECT one request at a time; hdparm reads the raw device in 2 MiB requests, iomark a file in 1 MiB ones: compared in MiB/s, the unit hdparm prints as MB/sec"},
			{byName("hdparm-read"), false, "iomark's hdparm-read is hdparm -t without --direct (buffered, with read-ahead); PiBenchmarks runs --direct first: compared in MiB/s"},
		},
	},
	{
		column: "dd_write_mbps", label: "dd write", unit: "MB/s",
		method: "dd from /dev/zero through the page cache with one fsync at the end (pidramble bs=8k count=50k conv=fsync; Storage.sh bs=4k count=130k conv=fsync)",
		// A dd without conv=fsync or sync measures the page cache (refdata marks it "no sync").
		skip: func(r refdata.Result) bool { return r.DDWithoutSync() },
		candidates: []candidate{
			{byName("dd-write-4k"), true, "the pibenchmarks profile's dd-write-4k writes as Storage.sh's dd does (buffered 4 KiB writes, fsync at the end), with incompressible data where dd writes zeros; pidramble's dd used 8 KiB blocks"},
			{direct("write", mib, false, qdLowest), false, "iomark writes incompressible data with O_DIRECT in 1 MiB blocks; dd writes zeros through the page cache in 4 or 8 KiB blocks and fsyncs once at the end"},
		},
	},
	{
		column: "dd_read_mbps", label: "dd read", unit: "MB/s",
		method: "dd of a file to /dev/null after dropping the page cache, bs=500K (yacy-sd-card-speed)",
		candidates: []candidate{
			{byName("hdparm-read"), false, "both are buffered sequential reads after the page cache is dropped; dd read a file in 500 KB blocks, iomark's hdparm-read reads the device in 2 MiB blocks"},
			{direct("read", mib, false, qdLowest), false, "iomark reads with O_DIRECT in 1 MiB blocks; dd read through the page cache with read-ahead in 500 KB blocks"},
		},
	},
	{
		column: "rand4k_read_mbps", label: "4K random read (iozone)", unit: "MB/s",
		method:     "iozone -e -I -r 4k -i 2: O_DIRECT 4 KiB random reads, one at a time",
		candidates: []candidate{{direct("randread", 4*kib, false, qdOne), true, noteIozoneMB}},
		rowFactor:  iozoneMiB, rowNote: iozoneMiBNote,
	},
	{
		column: "rand4k_write_mbps", label: "4K random write (iozone)", unit: "MB/s",
		method:     "iozone -e -I -r 4k -i 2: O_DIRECT 4 KiB random writes, one at a time",
		candidates: []candidate{{direct("randwrite", 4*kib, false, qdOne), true, noteIozoneMB}},
		rowFactor:  iozoneMiB, rowNote: iozoneMiBNote,
	},
	{
		column: "rand4k_read_kbps_iozone", label: "4K random read (iozone)", unit: "KiB/s",
		method:     "iozone 4 KiB random read in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("randread", 4*kib, false, qdOne), true, noteIozoneSame + "; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "rand4k_write_kbps_iozone", label: "4K random write (iozone)", unit: "KiB/s",
		method:     "iozone 4 KiB random write in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("randwrite", 4*kib, false, qdOne), true, noteIozoneSame + "; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "seq4k_read_kbps_iozone", label: "4K sequential read (iozone)", unit: "KiB/s",
		method:     "iozone 4 KiB sequential read (-i 1) in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("read", 4*kib, false, qdOne), true, noteIozoneSame + "; iomark's figure is converted to KiB/s"}},
	},
	{
		// Never dd-write-4k: it is buffered, dd's method, not iozone's O_DIRECT one.
		column: "seq4k_write_kbps_iozone", label: "4K sequential write (iozone)", unit: "KiB/s",
		method:     "iozone 4 KiB sequential first write (-i 0) in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("write", 4*kib, false, qdOne), false, noteOverwrite + "; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "seq4k_rewrite_kbps_iozone", label: "4K sequential rewrite (iozone)", unit: "KiB/s",
		method:     "iozone 4 KiB sequential rewrite (-i 0, second pass over the file) in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("write", 4*kib, false, qdOne), true, "both write over a file whose blocks are already allocated, with O_DIRECT, one I/O at a time; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "iozone_rand1m_read_mbps", label: "1M random read (iozone)", unit: "MB/s",
		method:     "iozone -e -I -r 1024k -i 2: O_DIRECT 1 MiB random reads, one at a time (disk-benchmark.sh)",
		candidates: []candidate{{direct("randread", mib, false, qdOne), true, noteIozoneMB}},
		rowFactor:  iozoneMiB, rowNote: iozoneMiBNote,
	},
	{
		column: "iozone_rand1m_write_mbps", label: "1M random write (iozone)", unit: "MB/s",
		method:     "iozone -e -I -r 1024k -i 2: O_DIRECT 1 MiB random writes, one at a time (disk-benchmark.sh)",
		candidates: []candidate{{direct("randwrite", mib, false, qdOne), true, noteIozoneMB}},
		rowFactor:  iozoneMiB, rowNote: iozoneMiBNote,
	},
	{
		column: "iozone_seq1m_read_mbps", label: "1M sequential read (iozone)", unit: "MB/s",
		method:     "iozone -e -I -r 1024k -i 1: O_DIRECT 1 MiB sequential reads (disk-benchmark.sh since 2024 prints the reread pass)",
		candidates: []candidate{{direct("read", mib, false, qdOne), true, noteIozoneMB + "; with O_DIRECT, iozone's read and reread passes both read the drive"}},
		rowFactor:  iozoneMiB, rowNote: iozoneMiBNote,
	},
	{
		column: "iozone_seq1m_write_mbps", label: "1M sequential write (iozone)", unit: "MB/s",
		method:     "iozone -e -I -r 1024k -i 0: O_DIRECT 1 MiB sequential writes (disk-benchmark.sh since 2024 prints the rewrite pass)",
		candidates: []candidate{{direct("write", mib, false, qdOne), true, noteIozoneMB + "; iomark writes over a laid-out file, as the rewrite pass disk-benchmark.sh prints does (SOURCES.md)"}},
		rowFactor:  iozoneMiB, rowNote: iozoneMiBNote,
	},
	{
		column: "seq1m_write_kbps_iozone", label: "1M sequential write (raw iozone)", unit: "KiB/s",
		method:     "iozone -e -I -r 1024k -i 0, first write pass, in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("write", mib, false, qdOne), false, noteOverwrite + "; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "seq1m_rewrite_kbps_iozone", label: "1M sequential rewrite (raw iozone)", unit: "KiB/s",
		method:     "iozone -e -I -r 1024k -i 0, rewrite pass, in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("write", mib, false, qdOne), true, "both write 1 MiB blocks with O_DIRECT over a file whose blocks are already allocated; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "rand1m_read_kbps_iozone", label: "1M random read (raw iozone)", unit: "KiB/s",
		method:     "iozone -e -I -r 1024k -i 2, random read, in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("randread", mib, false, qdOne), true, noteIozoneSame + "; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "rand1m_write_kbps_iozone", label: "1M random write (raw iozone)", unit: "KiB/s",
		method:     "iozone -e -I -r 1024k -i 2, random write, in iozone's kB/s (KiB/s)",
		candidates: []candidate{{direct("randwrite", mib, false, qdOne), true, noteIozoneSame + "; iomark's figure is converted to KiB/s"}},
	},
	{
		column: "fio_seq1m_read_mbps", label: "1M sequential read (fio)", unit: "MB/s",
		method: "fio --rw=read --bs=1024k --direct=1 --iodepth=64 --numjobs=4 (disk-benchmark.sh 2021-2023; some pages state no parameters)",
		candidates: []candidate{{direct("read", mib, false, qdDeepest), false,
			"fio kept up to 256 reads in flight (4 jobs at QD64), iomark one job at the deepest queue of the run (QD1 in quick, QD8 in cdm)"}},
	},
	{
		column: "fio_seq1m_write_mbps", label: "1M sequential write (fio)", unit: "MB/s",
		method: "fio 1 MiB sequential write; the page states no parameters",
		candidates: []candidate{{direct("write", mib, false, qdDeepest), false,
			"the published fio parameters are not stated; iomark's is one job at the deepest queue of the run"}},
	},
	{
		column: "fio_rand4k_read_iops", label: "4K random read (fio, QD64)", unit: "IOPS",
		method: "fio --bs=4k --iodepth=64 --size=80M --direct=1 --ioengine=libaio --readwrite=randread (PiBenchmarks' Storage.sh)",
		candidates: []candidate{
			{byName("fio-rand-read-4k-qd64"), true, "the pibenchmarks profile's fio-rand-read-4k-qd64 runs Storage.sh's fio job: O_DIRECT 4 KiB random reads at QD64 over 80 MiB"},
			{deepest("randread", 4*kib, fioQDFloor), false, noteFioQD},
		},
	},
	{
		column: "fio_rand4k_write_iops", label: "4K random write (fio, QD64)", unit: "IOPS",
		method: "fio --bs=4k --iodepth=64 --size=80M --direct=1 --ioengine=libaio --readwrite=randwrite (PiBenchmarks' Storage.sh)",
		candidates: []candidate{
			{byName("fio-rand-write-4k-qd64"), true, "the pibenchmarks profile's fio-rand-write-4k-qd64 runs Storage.sh's fio job: O_DIRECT 4 KiB random writes at QD64 over 80 MiB"},
			{deepest("randwrite", 4*kib, fioQDFloor), false, noteFioQD},
		},
	},
	{
		column: "pibenchmarks_score", label: "PiBenchmarks score", unit: "points",
		method: "the Score line of PiBenchmarks' Storage.sh: dd, fio and iozone figures weighted and summed",
		candidates: []candidate{{pibScore, true,
			"the pibenchmarks profile computes Storage.sh's formula from its own dd, fio and iozone-compatible tests; each step is bounded by time where Storage.sh bounds it by size (docs/methodology.md)"}},
	},
}

// notCompared are the published figure columns no iomark figure is set beside, and why.
var notCompared = map[string]string{
	"capacity_gb": "a drive's size, not a measurement: it names the drive",
	"price_usd":   "a price, not a measurement (`iomark run --price` gives a run its own)",
	"hdparm_direct_cached_read_mbps": "hdparm -T --direct reads the same 2 MiB from the drive's cache again and again: it times the link and " +
		"the drive's cache, never the flash, and iomark measures no such figure",
	"fio_rand4k_read_kbps":    "the KB/s PiBenchmarks prints beside fio_rand4k_read_iops for the same fio run (IOPS × 4 KiB): compared once, as IOPS",
	"fio_rand4k_write_kbps":   "the KB/s PiBenchmarks prints beside fio_rand4k_write_iops for the same fio run (IOPS × 4 KiB): compared once, as IOPS",
	"maker_rand4k_read_iops":  "a maker's specification: it states no tool, queue depth or test size, so no iomark test measures it the same way",
	"maker_rand4k_write_iops": "a maker's specification: it states no tool, queue depth or test size, so no iomark test measures it the same way",
}
