package compare

import (
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/probe/sdreg"
	"github.com/iomark/iomark/internal/record"
	"github.com/iomark/iomark/internal/refdata"
)

// Model is a drive model as the site ranks it: maker, product line and capacity. Key groups
// results of one model; Name is how pages print it. A record keeps its raw device key
// (record.Run.DeviceKey); the model key is decided here, so a better alias table re-keys
// stored results without touching them.
type Model struct {
	Key  string
	Name string
}

// labelPrefixes are the parts of a source's row label that name the board or the medium
// rather than the drive, each with the source that labels its rows that way.
var labelPrefixes = []struct {
	source string
	prefix *regexp.Regexp
}{
	// turing-pi-cluster-11 labels rows "<board> <medium> - <drive>": "CM3+ microSD - Samsung
	// Evo+ 32GB", "Pi 4 microSD - Samsung Evo+ 32GB", "Pi 4 Kingston USB 3.0 SSD w/ UASP".
	{"turing-pi-cluster-11", regexp.MustCompile(`^(?i)(cm3\+|pi 4)\s+(microsd\s+-\s+)?`)},
}

// modelAliases join wordings of one drive model that the normalisation below keeps apart.
// Each maps a normalised wording to the one it is, with the source that says they are the
// same drive.
var modelAliases = map[string]struct{ to, source string }{
	// pcie-devices-679 labels the Raspberry Pi SSD by the Samsung module inside it ("Raspberry
	// Pi SSD (Samsung MZ9LQ256HBJD-00BVL)"); rpi-docs-ssds names it "Raspberry Pi SSD 256GB".
	"raspberry pi ssd (samsung mz9lq256hbjd-00bvl)": {"raspberry pi ssd", "pcie-devices-679"},
	// pradeep39-private-cloud-part1: "Raspberry Pi 256 GB NVMe SSD kit with a Hat" is the
	// Raspberry Pi SSD Kit (the SSD with the M.2 HAT+), rpi-docs-ssds' "Raspberry Pi SSD 256GB".
	"raspberry pi 256 gb nvme ssd kit": {"raspberry pi ssd", "pradeep39-private-cloud-part1"},
	// teslausb-239 writes "KIOXIA Excerica G2"; KIOXIA sells the drive as EXCERIA G2.
	"kioxia excerica g2": {"kioxia exceria g2", "teslausb-239"},
}

// cidAliases join an SD card's CID (manufacturer id, OEM id, product name) to its marketing
// name. Only an alias a source states joins them: the same CID name is reused across product
// lines, so a guess would merge different cards. Keys are "manfid:oemid:name", lower case.
var cidAliases = map[string]struct{ name, source string }{}

// PublishedModel is the drive model of a published row: its label without the board or medium
// a source puts in it, with the capacity the row states.
func PublishedModel(p refdata.Result) Model {
	label := strings.Join(strings.Fields(p.MakeModel), " ")
	for _, lp := range labelPrefixes {
		if lp.source == p.SourceID {
			label = lp.prefix.ReplaceAllString(label, "")
		}
	}
	var capGB float64
	if p.CapacityGB.Value != nil {
		capGB = *p.CapacityGB.Value
	}
	return modelOf(label, capGB)
}

// capacityWords are capacity tokens in a label ("32GB", "32 GB", "1TB"); the row's capacity
// column says the same in a form the key can use.
var capacityWords = regexp.MustCompile(`(?i)\b\d+(\.\d+)?\s?(gb|tb|gib)\b`)

// modelOf builds the model of a label and a capacity in GB (0: not stated).
func modelOf(label string, capGB float64) Model {
	norm := normaliseLabel(label)
	if a, ok := modelAliases[norm]; ok {
		norm = a.to
	}
	if capGB > 0 {
		norm = strings.Join(strings.Fields(capacityWords.ReplaceAllString(norm, "")), " ")
	}
	name := label
	key := "model:" + norm
	switch {
	case capGB > 0:
		key += ":" + fmtGB(capGB)
		if !capacityWords.MatchString(label) {
			name += " " + fmtGB(capGB)
		}
	default:
		key += ":capacity-not-stated"
	}
	return Model{Key: key, Name: name}
}

var plusSign = regexp.MustCompile(`([a-z0-9])\+`)

// normaliseLabel lower-cases a label and writes the same words one way: underscores as
// spaces ("Samsung_SSD_970_EVO_Plus_2TB", a device name), and a "+" after a word as "plus"
// (Samsung sells "EVO Plus" and "PRO Plus"; sources write "Evo+" and "Pro+").
func normaliseLabel(label string) string {
	s := strings.ToLower(strings.ReplaceAll(label, "_", " "))
	s = plusSign.ReplaceAllString(s, "$1 plus")
	return strings.Join(strings.Fields(s), " ")
}

// fmtGB prints a capacity as a label would: "32GB", "1TB".
func fmtGB(gb float64) string {
	if gb >= 1000 && math.Mod(gb, 1000) == 0 {
		return fmt.Sprintf("%.0fTB", gb/1000)
	}
	return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", gb), "0"), ".") + "GB"
}

// nominalSizesGB are the capacities drives are sold by.
var nominalSizesGB = []float64{1, 2, 4, 8, 16, 32, 64, 120, 128, 240, 250, 256, 480, 500, 512, 960, 1000, 1024, 2000, 2048, 4000, 4096, 8000}

// NominalGB is the capacity a drive of that many bytes is sold as: the nearest of the sizes
// drives are labelled with, within 12% (a "32 GB" card holds 31.9 × 10^9 bytes, a 29.7 GiB
// one; an SSD holds a little more than its label). 0 when none is that near.
func NominalGB(bytes uint64) float64 {
	gb := float64(bytes) / 1e9
	best, bestDiff := 0.0, math.Inf(1)
	for _, n := range nominalSizesGB {
		if d := math.Abs(gb-n) / n; d < bestDiff {
			best, bestDiff = n, d
		}
	}
	if bestDiff > 0.12 {
		return 0
	}
	return best
}

// Virtual reports whether a run measured a virtual device: a loop device, a virtio disk, a RAM
// disk. Such a result says nothing about a drive anyone can buy: it is never ranked and has no
// drive page.
func Virtual(r *record.Run) bool {
	if r.Device == nil {
		return false
	}
	switch r.Device.Class {
	case probe.ClassLoop, probe.ClassVirtio:
		return true
	}
	for _, p := range []string{"loop", "ram", "zram", "nbd", "ublk"} {
		if strings.HasPrefix(r.Device.Name, p) {
			return true
		}
	}
	for _, h := range r.Link {
		if h.Bus == "loop" || h.Bus == "virtio" {
			return true
		}
	}
	return false
}

// RecordModel is the drive model of a measured run: the identity the drive reports (an SD
// card's CID, a USB drive's or bridge's model, an NVMe or SATA model number) with its nominal
// capacity. A CID joins a marketing name only through cidAliases. Empty for a virtual device
// or a run that names no drive.
func RecordModel(r *record.Run) Model {
	if r.Device == nil || Virtual(r) {
		return Model{}
	}
	capGB := NominalGB(r.Device.CapacityBytes)
	if r.SD != nil && r.SD.Name != "" {
		cid := strings.ToLower(fmt.Sprintf("%02x:%s:%s", r.SD.ManfID, r.SD.OEMID, r.SD.Name))
		if a, ok := cidAliases[cid]; ok {
			return modelOf(a.name, capGB)
		}
		maker := r.SD.Manufacturer
		if maker == "" && r.SD.ManfID >= 0 && r.SD.ManfID < 256 {
			maker, _ = sdreg.Manufacturer(uint8(r.SD.ManfID))
		}
		if maker == "" {
			maker = fmt.Sprintf("manufacturer 0x%02x", r.SD.ManfID)
		}
		m := Model{Key: "sd:" + cid, Name: maker + " " + r.SD.Name}
		if capGB > 0 {
			m.Key += ":" + fmtGB(capGB)
			m.Name += " " + fmtGB(capGB)
		}
		return m
	}
	label := strings.TrimSpace(r.Device.Vendor + " " + r.Device.Model)
	switch {
	case r.NVMe != nil && r.NVMe.Model != "":
		label = r.NVMe.Model
	case r.SATA != nil && r.SATA.Model != "":
		label = r.SATA.Model
	case r.USB != nil && r.USB.Drive != nil && r.USB.Drive.Model != "":
		label = r.USB.Drive.Model
	}
	if label == "" {
		return Model{}
	}
	return modelOf(label, capGB)
}
