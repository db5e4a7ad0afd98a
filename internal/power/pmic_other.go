//go:build !linux

package power

import "github.com/iomark/iomark/internal/probe"

func findPMIC(probe.Options) Sampler { return nil }
