// Package advice turns what probe found and what a run measured into findings: each names a
// bottleneck or a risk to honest results, how bad it is, the evidence, and the fix. One rule
// per file (or small family), each with tests that trigger it and tests that do not.
//
// Evaluate judges a probe.Report (iomark info, and the target of a run); EvaluateHealth judges
// what the drive reported about itself (health.go); EvaluateRun judges a finished *record.Run
// (its figures, sensor samples and health). Rules only read what they are given:
// they never probe the system or measure, and their ids are stable (docs/findings.md is the
// catalogue). The finding type itself is record.Finding.
package advice
