//go:build !linux

package lab

import (
	"errors"
	"fmt"
)

var errNotLinux = errors.New("lab: emulated drives need Linux (loop devices and cgroup-v1 blkio)")

// Available always fails off Linux.
func Available() error { return errNotLinux }

func availableFor(Spec) error { return errNotLinux }

// Up always fails off Linux.
func Up(s Spec) (*Drive, error) { return nil, errNotLinux }

// Down has nothing to undo off Linux.
func (d *Drive) Down() error { return nil }

// SetLimits always fails off Linux.
func (d *Drive) SetLimits(readIOPS, writeIOPS, readMBps, writeMBps int) error {
	return fmt.Errorf("lab: drive %s: %w", d.Spec.Name, errNotLinux)
}

// DropCaches always fails off Linux.
func (d *Drive) DropCaches() error { return errNotLinux }

// FioAvailable always fails off Linux.
func FioAvailable() error { return errNotLinux }

// RunFio always fails off Linux.
func RunFio(args ...string) (*FioResult, error) { return nil, errNotLinux }

// CardAvailable always fails off Linux.
func CardAvailable() error { return errNotLinux }

// CardDrive is an emulated card on Linux; off Linux UpCard always fails.
type CardDrive struct {
	Dev, Mnt, File string
	Card           *Card
}

// CardAttach says how a card's loop device is attached (Linux only).
type CardAttach struct{ ReadOnly, PartScan bool }

// UpCard always fails off Linux.
func UpCard(s CardSpec, a CardAttach) (*CardDrive, error) { return nil, errNotLinux }

// Down has nothing to undo off Linux.
func (d *CardDrive) Down() error { return nil }
