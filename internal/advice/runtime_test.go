package advice

import (
	"strings"
	"testing"
)

func runtimeIDs(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.ID+":"+string(f.Severity))
	}
	return strings.Join(s, ",")
}

func TestRunTimeFindings(t *testing.T) {
	for _, c := range []struct {
		name string
		f    RunFacts
		want string
	}{
		{"nothing", RunFacts{CeilingMBPerS: 40, CPUs: 4, Tests: []TestFacts{{Name: "seq-read-1m", MBPerS: 39, CPUPct: 10, Threads: 1}}}, ""},
		{"above ceiling", RunFacts{CeilingMBPerS: 40, Tests: []TestFacts{{Name: "seq-read-1m", MBPerS: 900}}}, "above-ceiling:bad"},
		{"at the ceiling is fine", RunFacts{CeilingMBPerS: 40, Tests: []TestFacts{{Name: "seq-read-1m", MBPerS: 41.9}}}, ""},
		{"unknown ceiling", RunFacts{Tests: []TestFacts{{Name: "seq-read-1m", MBPerS: 900}}}, ""},
		{"cpu bound", RunFacts{CPUs: 4, Tests: []TestFacts{{Name: "rand-read-4k-qd1", CPUPct: 97, Threads: 1}}}, "cpu-bound:warn"},
		{"cpu bound capped by cpus", RunFacts{CPUs: 2, Tests: []TestFacts{{Name: "rand-read-4k-qd32", CPUPct: 190, Threads: 32}}}, "cpu-bound:warn"},
		{"cpu busy but not bound", RunFacts{CPUs: 2, Tests: []TestFacts{{Name: "rand-read-4k-qd32", CPUPct: 90, Threads: 32}}}, ""},
		{"thermal", RunFacts{Tests: []TestFacts{{Name: "sustained-write", ThermalDrop: true, DropPct: 60, MaxDriveTempC: 71, CliffAtSeconds: 40}}}, "thermal-drop:warn"},
		{"throttled now", RunFacts{Throttled: []string{"0x0", "0x50005"}}, "throttled-during-run:bad"},
		{"throttled only in the past", RunFacts{Throttled: []string{"0x50000", "0x50000"}}, ""},
		{"bad sensor text", RunFacts{Throttled: []string{"garbage", ""}}, ""},
		{"noisy", RunFacts{Tests: []TestFacts{{Name: "rand-write-4k-qd1", Noisy: true, CI95Pct: 12}}}, "noisy:info"},
		{"worst first", RunFacts{CeilingMBPerS: 40, Tests: []TestFacts{{Name: "a", Noisy: true}, {Name: "b", MBPerS: 100}}}, "above-ceiling:bad,noisy:info"},
	} {
		got := EvaluateRun(c.f)
		if got == nil {
			t.Fatalf("%s: nil findings; want an empty list", c.name)
		}
		if runtimeIDs(got) != c.want {
			t.Errorf("%s: findings %q, want %q", c.name, runtimeIDs(got), c.want)
		}
		for _, f := range got {
			if f.Message == "" || f.Fix == "" {
				t.Errorf("%s: finding %s lacks a message or a fix", c.name, f.ID)
			}
		}
	}
}
