// Package advice turns what probe found into findings: each names a bottleneck or a risk to
// honest results, how bad it is, the evidence, and the fix. One rule per file (or small
// family), each with tests that trigger it and tests that do not.
//
// Rules only read a probe.Report (and later benchmark results); they never probe the system
// themselves, and their ids are stable (docs/findings.md is the catalogue).
package advice
