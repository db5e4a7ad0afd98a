// Package runner runs a profile through the engine and returns a finished result record.
//
// Run first decides what the run may do with its target (Decide: the same rules for a
// directory, a file and a block device, made before any I/O and said through Env.Log,
// refusals included), then lays out one shared test file on a directory target, applies the profile's plans
// (package profile: budgets, byte bounds, ramps) to each test, repeats it until its 95%
// confidence interval is tight or its budget is spent (package stats), samples sensors once
// a second, and assembles the record.Run: the target and what the probe found, the settings
// fingerprint, each test's figures from its median run (CPU share included), the sustained
// analysis, scores, warnings and findings (package advice), and each test's mean power and
// energy per GB where a power source was sampled (power.go). External gives a measurement
// made outside a profile (the network copy) the same record assembly.
//
// What it must not do: print (progress goes to Env.Progress, notes to Env.Log), store or
// export the record, judge figures itself (advice does), or leave its test file behind — on
// success, error and cancellation alike it removes the file it created. It never writes to
// a block device unless Env.Destructive and Env.Confirm name it (the engine enforces it too).
package runner
