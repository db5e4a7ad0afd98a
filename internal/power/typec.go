package power

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/iomark/iomark/internal/probe"
)

// typecPrefixes are the hwmon names of USB-C Power Delivery ports. Linux registers an hwmon
// device for every power supply (drivers/power/supply/power_supply_hwmon.c: the supply's name
// with '-' turned into '_', in0_input from VOLTAGE_NOW in mV, curr1_input from CURRENT_NOW in
// mA), and the Type-C stacks register one per port: TCPM ("tcpm-source-psy-<dev>",
// drivers/usb/typec/tcpm/tcpm.c) and UCSI ("ucsi-source-psy-<dev><n>",
// drivers/usb/typec/ucsi/psy.c). Their "now" values are the contract negotiated with the
// charger (tcpm_psy_get_current_now returns port->current_limit, the requested current; UCSI
// the RDO's operating current and the PDO's voltage), not what the board draws: volts times
// amps would be the charger's promise, constant whatever the drive does. They are never read
// as power; PDNote says so, so a user with such a port knows why no figure appears.
var typecPrefixes = []string{"tcpm_source_psy_", "ucsi_source_psy_"}

// PDNote explains, when the machine has no power source iomark reads but a USB-C PD port
// reports its contract through hwmon, why that port is not used; "" when there is none.
func PDNote(o probe.Options) string {
	dirs, _ := filepath.Glob(o.Path("/sys/class/hwmon/hwmon*"))
	sort.Slice(dirs, func(i, j int) bool { return hwmonNum(dirs[i]) < hwmonNum(dirs[j]) })
	for _, d := range dirs {
		name := readTrim(filepath.Join(d, "name"))
		if !isTypecPort(name) {
			continue
		}
		contract := ""
		mv, okV := readNum(filepath.Join(d, "in0_input"))
		ma, okI := readNum(filepath.Join(d, "curr1_input"))
		if okV && okI {
			contract = fmt.Sprintf(" (%.1f V, %.2f A)", mv/1e3, ma/1e3)
		}
		return fmt.Sprintf("the USB-C port %s reports only the power contract it negotiated%s, not what the board draws, so it gives no power figures; "+
			"type a USB-C meter's reading with --power-watts (docs/power.md)", name, contract)
	}
	return ""
}

func isTypecPort(hwmonName string) bool {
	for _, p := range typecPrefixes {
		if strings.HasPrefix(hwmonName, p) {
			return true
		}
	}
	return false
}
