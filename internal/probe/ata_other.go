//go:build !linux

package probe

func ataIdentify(Options, string) (*ATAIdentity, error) { return nil, errNotLive }
