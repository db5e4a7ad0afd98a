package lab

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseFioJSON(t *testing.T) {
	// Expected values are read off the fixtures (testdata/SOURCES.md says how they were made).
	tests := []struct {
		file string
		want FioResult
	}{
		{
			file: "fio-3.33-randread-psync-note.json",
			want: FioResult{
				ReadIOPS: 19862.137862, ReadBytesPerS: 81355316, ReadIOs: 19882, RuntimeS: 1,
				ReadClatP50US: 26.752, ReadClatP99US: 468.992, ReadLatMeanUS: 49.985722312,
				JobCPUUsrS: 0.006, JobCPUSysS: 0.271, FioVersion: "fio-3.33",
			},
		},
		{
			file: "fio-3.33-randwrite-uring-qd32.json",
			want: FioResult{
				WriteIOPS: 147365.634366, WriteBytesPerS: 603736487, WriteIOs: 147513, RuntimeS: 1,
				WriteClatP50US: 127.488, WriteClatP99US: 2834.432, WriteLatMeanUS: 217.434107276,
				JobCPUUsrS: 0.118, JobCPUSysS: 0.365, FioVersion: "fio-3.33",
			},
		},
		{
			// --lat_percentiles=1: lat_ns has percentiles too.
			file: "fio-3.33-randread-uring-qd32-lat.json",
			want: FioResult{
				ReadIOPS: 338887.112887, ReadBytesPerS: 1388208463, ReadIOs: 339226, RuntimeS: 1,
				ReadClatP50US: 74.240, ReadClatP99US: 183.296, ReadLatMeanUS: 94.121713571,
				ReadLatP50US: 77.312, ReadLatP99US: 185.344,
				JobCPUUsrS: 0.115, JobCPUSysS: 0.755, FioVersion: "fio-3.33",
			},
		},
		{
			// Two job entries: rates, counts and CPU add up; latencies are the first job's.
			file: "fio-3.33-randrw-2jobs.json",
			want: FioResult{
				ReadIOPS: 16034.965035 + 14129.87013, WriteIOPS: 6811.188811 + 6074.925075,
				ReadBytesPerS: 65679216 + 57875948, WriteBytesPerS: 27898629 + 24882893,
				ReadIOs: 16051 + 14144, WriteIOs: 6818 + 6081, RuntimeS: 1,
				ReadClatP50US: 10.816, ReadClatP99US: 1105.920, ReadLatMeanUS: 44.839207526,
				WriteClatP50US: 11.200, WriteClatP99US: 667.648, WriteLatMeanUS: 40.104205339,
				JobCPUUsrS: 0.018 + 0.028, JobCPUSysS: 0.130 + 0.115, FioVersion: "fio-3.33",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			out, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got, err := ParseFioJSON(out)
			if err != nil {
				t.Fatalf("ParseFioJSON: %v", err)
			}
			if got.FioVersion != tt.want.FioVersion {
				t.Errorf("FioVersion = %q, want %q", got.FioVersion, tt.want.FioVersion)
			}
			if len(got.Raw) == 0 || got.Raw[0] != '{' {
				t.Errorf("Raw does not start with the JSON object: %.40q", got.Raw)
			}
			// Every figure, by the struct's own fields: what the caller measures (WallS,
			// ProcCPUS, PeakRSSBytes) is zero on both sides.
			gv, wv := reflect.ValueOf(*got), reflect.ValueOf(tt.want)
			for i := range gv.NumField() {
				var g, w float64
				switch gf, wf := gv.Field(i), wv.Field(i); gf.Kind() {
				case reflect.Float64:
					g, w = gf.Float(), wf.Float()
				case reflect.Int64:
					g, w = float64(gf.Int()), float64(wf.Int())
				default:
					continue
				}
				if math.Abs(g-w) > 1e-6*math.Max(1, math.Abs(w)) {
					t.Errorf("%s = %v, want %v", gv.Type().Field(i).Name, g, w)
				}
			}
		})
	}
}

func TestParseFioJSONErrors(t *testing.T) {
	tests := []struct {
		name string
		out  string
	}{
		{"empty", ""},
		{"no JSON", "fio: pid=1, err=2/file:filesetup.c:1, func=open, error=No such file or directory\n"},
		{"truncated", "{\n  \"fio version\" : \"fio-3.33\",\n  \"jobs\" : [\n"},
		{"no jobs", `{"fio version": "fio-3.33", "jobs": []}`},
		{"job error", `{"fio version": "fio-3.33", "jobs": [{"jobname": "x", "error": 5}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ParseFioJSON([]byte(tt.out)); err == nil {
				t.Errorf("ParseFioJSON(%q) succeeded, want an error", tt.out)
			}
		})
	}
}

func FuzzParseFioJSON(f *testing.F) {
	for _, name := range []string{"fio-3.33-randread-psync-note.json", "fio-3.33-randrw-2jobs.json"} {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, out []byte) {
		ParseFioJSON(out) // must not panic
	})
}
