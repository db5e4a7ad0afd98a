// Command labctl runs inside a QEMU guest of the lab (internal/testkit/qemu): it builds
// device-mapper devices and captures the sysfs/procfs slice iomark reads. Its dm commands
// create and remove block devices: run them only in a lab guest. capture only reads, and
// works on any Linux machine (a real Pi) to make a fixture tree.
//
//	labctl dm create NAME TABLE     prints the new node (/dev/dm-N)
//	labctl dm reload NAME TABLE     swap the table of a live device
//	labctl dm remove NAME
//	labctl wrap-table DEV REAL FAKE print a wrap-around fake table (sectors)
//	labctl capture DIR              copy what probe reads into DIR
package main

import (
	"fmt"
	"os"
	"strconv"

	"github.com/iomark/iomark/internal/testkit/qemu/capture"
	"github.com/iomark/iomark/internal/testkit/qemu/dm"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "labctl:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: labctl dm create|reload|remove … | wrap-table DEV REAL FAKE | capture DIR")
	}
	switch {
	case args[0] == "dm" && len(args) == 4 && args[1] == "create":
		t, err := dm.ParseTable(args[3])
		if err != nil {
			return err
		}
		node, err := dm.Create(args[2], t)
		if err != nil {
			return err
		}
		fmt.Println(node)
		return nil
	case args[0] == "dm" && len(args) == 4 && args[1] == "reload":
		t, err := dm.ParseTable(args[3])
		if err != nil {
			return err
		}
		return dm.Reload(args[2], t)
	case args[0] == "dm" && len(args) == 3 && args[1] == "remove":
		return dm.Remove(args[2])
	case args[0] == "wrap-table" && len(args) == 4:
		real, err1 := strconv.ParseUint(args[2], 10, 64)
		fake, err2 := strconv.ParseUint(args[3], 10, 64)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("wrap-table DEV REAL FAKE: sector counts expected")
		}
		fmt.Println(dm.Format(dm.WrapAround(args[1], real, fake)))
		return nil
	case args[0] == "capture" && len(args) == 2:
		t, err := capture.Capture("/", args[1])
		if err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "labctl: captured %d files into %s (%d unreadable)\n", t.Files, args[1], len(t.Skipped))
		return nil
	}
	return fmt.Errorf("unknown command %q", args)
}
