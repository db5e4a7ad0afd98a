package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/iomark/iomark/internal/engine"
	"github.com/iomark/iomark/internal/probe"
)

// explainMissing turns the error for a target that does not exist into one that names what
// the user most likely meant: existing paths a few typing mistakes away, mount points of
// drives first, each with the command that benchmarks it (cmdLine formats it). Other errors,
// and a missing path with nothing close by, are returned as they are.
func explainMissing(err error, cmdLine func(path string) string) error {
	var mt *engine.MissingTarget
	if !errors.As(err, &mt) || mt.Nearest == "" {
		return err
	}
	near := probe.NearPaths(mt.Path, probe.Options{})
	if len(near) == 0 {
		return err
	}
	var alts []string
	for _, n := range near {
		s := n.Path
		if n.What != "" {
			s += " — " + n.What
		}
		alts = append(alts, s+" (`"+cmdLine(n.Path)+"`)")
	}
	return fmt.Errorf("%s does not exist: did you mean %s? iomark tests only where you name and creates nothing else; `iomark list` shows the drives and where they are mounted",
		mt.Path, strings.Join(alts, ", or "))
}
