//go:build !linux

package flash

import (
	"context"
	"errors"
)

// Fill needs Linux (O_DIRECT, fadvise).
func Fill(ctx context.Context, o FillOptions) (*Result, error) {
	return nil, errors.New("verifying a directory needs Linux")
}
