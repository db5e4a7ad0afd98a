package power

import "fmt"

// meter is a reading typed from a meter (--power-watts): the same figure for every sample.
type meter struct{ watts float64 }

// Meter returns a Sampler that always answers w watts, as read by the user on a meter
// between the supply and the board during the run.
func Meter(w float64) Sampler { return meter{w} }

func (m meter) Watts() (float64, bool) { return m.watts, true }

func (m meter) Info() Info {
	return Info{Source: "meter", Sensor: fmt.Sprintf("%.2f W typed with --power-watts", m.watts),
		Scope: "what the user's meter measured (usually the whole board at its supply), one reading for the whole run"}
}
