// Package profile owns iomark's benchmark profiles and the runner that measures them.
//
// A profile (quick, pibenchmarks, sbc-reviews, cdm, cdm-nvme, cdm-flash, sustained, a1, a2)
// is data: a list of tests, each one engine job shape with a stable name, the peer command it
// mirrors and where that shape comes from, plus the profile's time and write budgets and,
// for peer profiles, the score formula. Run turns a profile into engine jobs on one shared
// test file, repeats each test until its 95% confidence interval is tight or its budget is
// spent (package stats), samples sensors once a second, and returns record.Test figures.
//
// What it must not do: print (progress goes to Env.Progress, notes to Env.Log), judge the
// figures (package advice does), store or export them, or leave its test file behind — on
// success, error and cancellation alike it removes the file it created. It never writes to
// a block device unless Env.Destructive and Env.Confirm name it (the engine enforces it too).
package profile
