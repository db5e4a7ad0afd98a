// Package profile owns iomark's benchmark profiles and the plans that bound them.
//
// A profile (quick, pibenchmarks, sbc-reviews, cdm, cdm-nvme, cdm-flash, sustained, a1, a2)
// is data: a list of tests, each one engine job shape with a stable name, the peer command it
// mirrors and where that shape comes from, plus the profile's time and write budgets and,
// for peer profiles, the score formula and the class check. The planning rules (plan.go:
// each test's share of the time and write budgets, a repetition's byte bound and ramp) are
// pure functions of a profile and what a run has used so far; WorstCase applies them to a
// model drive.
//
// What it must not do: run anything. It does no I/O, samples no sensor, prints nothing and
// judges no figure: internal/runner applies the profile and its plans through the engine and
// returns the record, package advice judges the figures.
package profile
