package runner

import (
	"time"

	"github.com/iomark/iomark/internal/profile"
	"github.com/iomark/iomark/internal/record"
)

// External gives a measurement made outside a profile (the network copy, package netcopy)
// what Run gives its record: the target, the probe's identity, health and power, sensors
// sampled once a second labelled with the test's name, and at the end each test's power, the
// thermal judgement of sustained writes and the findings.
type External struct {
	r    *runner
	stop func()
}

// StartExternal starts a record of profileName for env and begins sampling sensors, labelled
// testName.
func StartExternal(env Env, profileName, testName string) (*External, error) {
	start := time.Now()
	rec, err := newRecord(env, profileName, start)
	if err != nil {
		return nil, err
	}
	r := &runner{p: profile.Profile{Name: profileName}, env: env, start: start, rec: rec}
	r.setTest(testName)
	return &External{r: r, stop: r.sampleSensors()}, nil
}

// Record is the record being made. Its tests and figures are the caller's to add; its sensor
// samples are the sampler's until Finish.
func (e *External) Record() *record.Run { return e.r.rec }

// Finish stops the sensors and completes the record as Run does.
func (e *External) Finish() *record.Run {
	e.stop()
	e.r.setTest("")
	e.r.finish()
	return e.r.rec
}
