// Command iomark measures storage honestly: what the drive is, what stands between it and the
// CPU, and how fast it really is. main only wires the CLI; everything else lives in internal/.
package main

import (
	"os"

	"github.com/iomark/iomark/internal/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
