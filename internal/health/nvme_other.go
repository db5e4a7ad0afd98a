//go:build !linux

package health

import "github.com/iomark/iomark/internal/probe"

func readNVMe(probe.Options, string) (*Health, error) { return nil, probe.ErrNotLive }
