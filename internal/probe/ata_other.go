//go:build !linux

package probe

func ataIdentify(Options, string) (*ATAIdentity, error) { return nil, errNotLive }

// ATASession needs Linux's SG_IO.
func ATASession(Options, string, func(send func(ATACommand) ([]byte, error)) error) error {
	return errNotLive
}
