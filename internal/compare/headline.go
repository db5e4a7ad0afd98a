package compare

import (
	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// Metric is one of the headline figures lists show and rankings use.
type Metric string

const (
	MetricScore     Metric = "score"         // PiBenchmarks score, points
	MetricSeqRead   Metric = "seq_read"      // MB/s
	MetricSeqWrite  Metric = "seq_write"     // MB/s
	MetricRandRead  Metric = "rand_read_4k"  // 4 KiB random read at QD1, MB/s
	MetricRandWrite Metric = "rand_write_4k" // 4 KiB random write at QD1, MB/s
)

// Metrics are the headline figures in the order lists print them.
func Metrics() []Metric {
	return []Metric{MetricScore, MetricSeqRead, MetricSeqWrite, MetricRandRead, MetricRandWrite}
}

// metricNames are each metric's column header (with its unit) and its words in a sentence.
var metricNames = map[Metric]struct{ label, words string }{
	MetricScore:     {"PiBenchmarks score", "PiBenchmarks score"},
	MetricSeqRead:   {"seq read MB/s", "sequential read"},
	MetricSeqWrite:  {"seq write MB/s", "sequential write"},
	MetricRandRead:  {"4K random read MB/s", "4K random read"},
	MetricRandWrite: {"4K random write MB/s", "4K random write"},
}

// Label names a metric with its unit, for column headers.
func (m Metric) Label() string {
	if n, ok := metricNames[m]; ok {
		return n.label
	}
	return string(m)
}

// Words names a metric in a sentence.
func (m Metric) Words() string {
	if n, ok := metricNames[m]; ok {
		return n.words
	}
	return string(m)
}

// Unit is the metric's unit.
func (m Metric) Unit() string {
	if m == MetricScore {
		return "points"
	}
	return "MB/s"
}

// Methods of headline figures: figures pool (percentiles, rankings) only with figures of the
// same method.
const (
	MethodDirectQD1    = "O_DIRECT, one I/O at a time" // iomark's QD1 tests, iozone -I
	MethodHdparm       = "hdparm -t (buffered)"        // iomark's hdparm-read, published hdparm -t
	MethodHdparmDirect = "hdparm -t --direct"          // PiBenchmarks' Disk Read
	MethodDD           = "dd, fsync at the end"        // iomark's dd-write-4k, published dd with conv=fsync
	MethodFioDeep      = "fio, deep queue"             // disk-benchmark.sh's fio 1M lines
	MethodPibScore     = "Storage.sh's score formula"  // a printed score, or one computed from its inputs
)

// Figure is one headline figure of a result.
type Figure struct {
	Metric Metric
	Value  float64 // in Metric.Unit()
	Method string  // one of the Method constants
	From   string  // the iomark test, or the published column(s)
}

// Figures are a result's headline figures by metric; a metric the result lacks is absent.
type Figures map[Metric]Figure

// RecordFigures reads the headline figures of a measured run. Each is the test that measures
// it the same way the published columns do (pubColumns): 4K figures are single-job O_DIRECT
// QD1 tests (quick's and sbc-reviews' rand-*-4k-qd1, pibenchmarks' iozone-rand-*-4k); the
// sequential ones 1 MiB O_DIRECT QD1 tests, else the pibenchmarks profile's hdparm and dd.
func RecordFigures(r *record.Run) Figures {
	out := Figures{}
	put := func(m Metric, method string, find func(*record.Run) (ours, bool)) {
		if _, done := out[m]; done {
			return
		}
		if o, ok := find(r); ok && o.test != nil && o.test.Runs > 0 {
			out[m] = Figure{Metric: m, Value: o.test.MBPerS, Method: method, From: o.name}
		}
	}
	put(MetricSeqRead, MethodDirectQD1, direct("read", mib, false, qdOne))
	put(MetricSeqRead, MethodHdparm, byName(profile.PibHdparmRead))
	put(MetricSeqWrite, MethodDirectQD1, direct("write", mib, false, qdOne))
	put(MetricSeqWrite, MethodDD, byName(profile.PibDDWrite))
	put(MetricRandRead, MethodDirectQD1, direct("randread", 4*kib, false, qdOne))
	put(MetricRandWrite, MethodDirectQD1, direct("randwrite", 4*kib, false, qdOne))
	if r.Scores.Pibenchmarks != nil {
		out[MetricScore] = Figure{Metric: MetricScore, Value: float64(*r.Scores.Pibenchmarks), Method: MethodPibScore, From: "pibenchmarks profile"}
	}
	return out
}

// publishedHeadline says which published columns give each headline figure, in order of
// preference, the method each measured, and how its printed unit becomes MB/s.
var publishedHeadline = []struct {
	metric Metric
	column string
	method string
	toMBPS func(refdata.Result, float64) float64
}{
	{MetricSeqRead, "iozone_seq1m_read_mbps", MethodDirectQD1, iozoneMBPS},
	{MetricSeqRead, "hdparm_direct_read_mbps", MethodHdparmDirect, mibToMB},
	{MetricSeqRead, "hdparm_read_mbps", MethodHdparm, mibToMB},
	{MetricSeqRead, "fio_seq1m_read_mbps", MethodFioDeep, asPrinted},
	{MetricSeqWrite, "iozone_seq1m_write_mbps", MethodDirectQD1, iozoneMBPS},
	{MetricSeqWrite, "seq1m_rewrite_kbps_iozone", MethodDirectQD1, kibToMB},
	{MetricSeqWrite, "dd_write_mbps", MethodDD, asPrinted},
	{MetricRandRead, "rand4k_read_mbps", MethodDirectQD1, iozoneMBPS},
	{MetricRandRead, "rand4k_read_kbps_iozone", MethodDirectQD1, kibToMB},
	{MetricRandWrite, "rand4k_write_mbps", MethodDirectQD1, iozoneMBPS},
	{MetricRandWrite, "rand4k_write_kbps_iozone", MethodDirectQD1, kibToMB},
}

func asPrinted(_ refdata.Result, v float64) float64 { return v }

// mibToMB: hdparm prints MiB/s as "MB/sec" (pubColumns).
func mibToMB(_ refdata.Result, v float64) float64 { return v * mib / 1e6 }

// kibToMB: iozone prints kB/s meaning KiB/s.
func kibToMB(_ refdata.Result, v float64) float64 { return v * kib / 1e6 }

// iozoneMBPS: the iozone "MB/s" columns hold MiB/s in rows whose script divided by 1024.
func iozoneMBPS(r refdata.Result, v float64) float64 { return v * iozoneMiB(r) }

// PublishedFigures reads the headline figures of a published row through the one map from
// published columns to iomark's figures. A dd figure taken without a sync measured the page
// cache and is left out. The score is the one the source printed, never one computed from the
// figures beside it: Storage.sh's formula over a summary's seven printed inputs gives the
// printed score in 37 of the 46 rows that print both, and 9 to 11% more than it in nine
// pxpunx-compute-blade-cm4 rows (docs/compare.md).
func PublishedFigures(p refdata.Result) Figures {
	out := Figures{}
	for _, h := range publishedHeadline {
		if _, done := out[h.metric]; done {
			continue
		}
		if h.column == "dd_write_mbps" && p.DDWithoutSync() {
			continue
		}
		f, _ := p.FigureIn(h.column)
		if f.Value == nil || *f.Value <= 0 {
			continue
		}
		out[h.metric] = Figure{Metric: h.metric, Value: h.toMBPS(p, *f.Value), Method: h.method, From: h.column}
	}
	if v := p.PiBenchmarksScore.Value; v != nil {
		out[MetricScore] = Figure{Metric: MetricScore, Value: *v, Method: MethodPibScore, From: "pibenchmarks_score"}
	}
	return out
}
