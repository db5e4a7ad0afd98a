package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/iomark/iomark/internal/advice"
	"github.com/iomark/iomark/internal/probe"
)

func init() { subcommands = append(subcommands, newInfoCmd) }

// infoResult is the JSON of `iomark info --json` (docs/info-json.md): the probe report with
// the findings beside it.
type infoResult struct {
	*probe.Report
	Findings []advice.Finding `json:"findings"`
}

// probeFlags are the flags info and list share.
type probeFlags struct {
	root    string
	timeout time.Duration
	json    bool
	noIoctl bool
}

func (f *probeFlags) add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.json, "json", false, "print one JSON object instead of the readable form")
	cmd.Flags().StringVar(&f.root, "root", os.Getenv("IOMARK_ROOT"),
		"read DIR/sys, DIR/proc and DIR/etc instead of the live system (also $IOMARK_ROOT)")
	cmd.Flags().DurationVar(&f.timeout, "timeout", probe.DefaultTimeout,
		"longest wait for any probe that could block (ATA pass-through through a USB bridge)")
}

func (f *probeFlags) options() (probe.Options, error) {
	if f.root != "" {
		st, err := os.Stat(f.root)
		if err != nil || !st.IsDir() {
			return probe.Options{}, usageError("--root %s: not a directory — give the folder that holds sys/ and proc/", f.root)
		}
	}
	if f.timeout <= 0 {
		return probe.Options{}, usageError("--timeout %v: must be positive", f.timeout)
	}
	return probe.Options{Root: f.root, Timeout: f.timeout, NoIoctl: f.noIoctl}, nil
}

func newInfoCmd() *cobra.Command {
	var f probeFlags
	var geometry bool
	var dsn string
	cmd := &cobra.Command{
		Use:   "info [TARGET]",
		Short: "Identify the drive behind TARGET, its link to the CPU, its ceiling and findings (no benchmark I/O)",
		Long: `info resolves TARGET (a directory, a file, a partition or a disk such as /dev/sda1 or
just sda1; default the current directory) to its mount, filesystem, partition and whole disk,
walks the chain from the drive to the CPU (SD bus, USB, PCIe, SATA), names the slowest hop's
practical ceiling and lists findings with their fix. It reads sysfs and procfs and never
writes; the only command it may send to a drive is ATA IDENTIFY through a USB-SATA bridge,
bounded by --timeout (--no-ioctl skips it).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := f.options()
			if err != nil {
				return err
			}
			target := "."
			if len(args) == 1 {
				target = args[0]
			}
			if geometry {
				return runGeometry(cmd, target, o, f.json)
			}
			r, err := probe.Probe(target, o)
			if err != nil {
				return withExit(exitFailure, err)
			}
			res := infoResult{Report: r, Findings: advice.Sorted(append(advice.Evaluate(r), verifyFindings(cmd.Context(), dsn, r)...))}
			out := cmd.OutOrStdout()
			if f.json {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(res)
			}
			printInfo(out, res)
			return nil
		},
	}
	f.add(cmd)
	cmd.Flags().BoolVar(&geometry, "geometry", false,
		"estimate the erase block (allocation unit) of the disk TARGET from read timing, and check its partitions against it (reads only; about 10 s)")
	addDBFlag(cmd, &dsn)
	cmd.Flags().BoolVar(&f.noIoctl, "no-ioctl", false,
		"send no command to the drive (skips ATA IDENTIFY through a USB bridge); identification from sysfs only")
	return cmd
}

// printInfo renders the report as a tree from the target down to the drive, then the link
// from the drive up to the CPU.
func printInfo(w io.Writer, res infoResult) {
	r := res.Report
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }
	p("%s", r.Target)
	indent := ""
	branch := func(format string, a ...any) {
		p(indent+"└─ "+format, a...)
		indent += "   "
	}
	if m := r.Mount; m != nil {
		extra := ""
		if m.Discard {
			extra += ", discard"
		}
		if m.Sync {
			extra += ", SYNC"
		}
		branch("filesystem %s mounted on %s from %s (%s%s)", m.FSType, m.MountPoint, m.Source, m.Options, extra)
	}
	if pt := r.Partition; pt != nil {
		al := "aligned to 1 MiB"
		if !pt.Aligned1MiB {
			al = "NOT aligned to 1 MiB"
		} else if pt.Aligned4MiB {
			al = "aligned to 1 MiB and 4 MiB"
		}
		branch("partition %s: starts at sector %d (%s), %s, %s", pt.Name, pt.StartBytes/512,
			bytesHuman(pt.StartBytes), bytesHuman(pt.SizeBytes), al)
	}
	if d := r.Device; d != nil {
		id := strings.TrimSpace(d.Vendor + " " + d.Model)
		if id != "" {
			id = ", " + id
		}
		branch("disk %s: %s, %s%s", d.Path, d.Class, bytesHuman(d.CapacityBytes), id)
		for _, line := range detailLines(r) {
			p("%s%s", indent, line)
		}
	}
	if len(r.Link) > 0 {
		p("")
		p("link, from the drive up to the CPU:")
		for i, h := range r.Link {
			glyph := "├─"
			if i == len(r.Link)-1 && r.Board == nil {
				glyph = "└─"
			}
			line := fmt.Sprintf("  %s %-6s %-14s %s", glyph, h.Bus, h.Name, hopText(h))
			if h.CeilingMBPerS > 0 {
				line += fmt.Sprintf("  [ceiling %.0f MB/s]", h.CeilingMBPerS)
			}
			p("%s", strings.TrimRight(line, " "))
		}
		if r.Board != nil {
			model := r.Board.Model
			if model == "" {
				model = "this machine"
			}
			p("  └─ CPU    %s", model)
		}
	}
	if c := r.Ceiling; c != nil {
		p("")
		p("ceiling: %.0f MB/s, set by the %s hop: %s (%s)", c.MBPerS, c.Bus, c.Basis, c.Source)
	}
	if b := r.Board; b != nil {
		p("")
		model := b.Model
		if model == "" {
			model = "model unknown (no device tree or DMI)"
		}
		p("board: %s", model)
		if b.Revision != "" {
			rev := "revision " + b.Revision
			if b.Pi != nil {
				rev += fmt.Sprintf(" (%s rev %s, %d MB, %s, made by %s)", b.Pi.Type, b.Pi.BoardRevision, b.Pi.MemoryMB, b.Pi.Processor, b.Pi.Manufacturer)
			}
			p("  %s", rev)
		}
		var s []string
		if b.SoCTempC != nil {
			s = append(s, fmt.Sprintf("SoC %.1f °C", *b.SoCTempC))
		}
		if t := b.Throttled; t != nil {
			s = append(s, "throttled="+orDash(t.Raw))
		}
		if b.Governor != "" {
			s = append(s, "governor "+b.Governor)
		}
		if b.CPUs > 0 {
			s = append(s, fmt.Sprintf("%d CPUs", b.CPUs))
		}
		if b.MemoryBytes > 0 {
			s = append(s, bytesHuman(b.MemoryBytes)+" RAM")
		}
		if len(s) > 0 {
			p("  %s", strings.Join(s, ", "))
		}
		p("  kernel %s, %s", orDash(b.Kernel), orDash(b.OS))
	}
	for _, n := range r.Notes {
		p("note: %s", n)
	}
	p("")
	if len(res.Findings) == 0 {
		p("findings: none")
		return
	}
	p("findings:")
	for _, f := range res.Findings {
		p("  %-4s %s: %s", f.Severity, f.ID, f.Message)
		if f.Fix != "" {
			p("       fix: %s", f.Fix)
		}
		if f.Evidence != "" {
			p("       evidence: %s", f.Evidence)
		}
	}
}

// detailLines describes the transport-specific identity under the disk line.
func detailLines(r *probe.Report) []string {
	var out []string
	if s := r.SD; s != nil {
		line := fmt.Sprintf("%s card: manfid 0x%02x (%s), oemid %q, name %q, rev %s, made %s", s.Type, s.ManfID,
			orDash(s.Manufacturer), s.OEMID, s.Name, orDash(s.Revision), orDash(s.Date))
		out = append(out, line)
		var cls []string
		if s.SpeedClass != nil && *s.SpeedClass > 0 {
			cls = append(cls, fmt.Sprintf("class %d", *s.SpeedClass))
		}
		if s.UHSClass != nil && *s.UHSClass > 0 {
			cls = append(cls, fmt.Sprintf("U%d", *s.UHSClass))
		}
		if s.VideoClass != nil && *s.VideoClass > 0 {
			cls = append(cls, fmt.Sprintf("V%d", *s.VideoClass))
		}
		if s.AppClass != nil && *s.AppClass != "" {
			cls = append(cls, *s.AppClass)
		}
		if s.SpecVersion != "" {
			cls = append(cls, "SD spec "+s.SpecVersion)
		}
		if s.CapacityBytes > 0 {
			cls = append(cls, "CSD capacity "+bytesHuman(s.CapacityBytes))
		}
		if len(cls) > 0 {
			out = append(out, strings.Join(cls, ", "))
		}
		if s.Timing != "" {
			out = append(out, fmt.Sprintf("bus: %s, %d-bit, %.1f MHz", s.Timing, s.BusWidthBits, float64(s.ClockHz)/1e6))
		}
		if s.CommandQueue != nil {
			out = append(out, fmt.Sprintf("command queueing enabled in the device tree: %v", *s.CommandQueue))
		}
		if s.Suspect {
			out = append(out, "identity looks forged: "+strings.Join(s.SuspectReasons, "; "))
		}
	}
	if u := r.USB; u != nil {
		line := fmt.Sprintf("USB %s:%s %q %q, USB %s, driver %s", u.VID, u.PID, u.Manufacturer, u.Product, orDash(u.Version), orDash(u.Driver))
		out = append(out, line)
		if b := u.Bridge; b != nil {
			out = append(out, fmt.Sprintf("bridge: %s %s (%s, UAS %v)", b.Vendor, b.Chip, b.Kind, b.UAS))
		}
		if u.SCSIVendor != "" || u.SCSIModel != "" {
			out = append(out, fmt.Sprintf("SCSI inquiry: %q %q", u.SCSIVendor, u.SCSIModel))
		}
		if d := u.Drive; d != nil {
			out = append(out, fmt.Sprintf("drive behind the bridge: %s, firmware %s", d.Model, orDash(d.Firmware)))
		}
		for _, h := range u.Hubs {
			out = append(out, "through hub "+h)
		}
		if u.UASDisabledByQuirk {
			out = append(out, "UAS disabled by usb-storage quirk "+u.Quirks)
		}
	}
	if n := r.NVMe; n != nil {
		out = append(out, fmt.Sprintf("NVMe %s, firmware %s, PCIe gen%d x%d (drive supports gen%d x%d)",
			orDash(n.Model), orDash(n.Firmware), n.PCIeGen, n.PCIeWidth, n.PCIeMaxGen, n.PCIeMaxWidth))
		if n.TempC != nil {
			out = append(out, fmt.Sprintf("temperature %.1f °C", *n.TempC))
		}
	}
	if s := r.SATA; s != nil {
		out = append(out, fmt.Sprintf("SATA %s, firmware %s, link %.1f Gb/s on %s (%s)", orDash(s.Model), orDash(s.Firmware), s.LinkGbps, s.Port, orDash(s.Driver)))
	}
	if l := r.Loop; l != nil {
		line := "backed by " + orDash(l.BackingFile)
		if l.BackingDevice != "" {
			line += " on " + l.BackingDevice
		}
		if l.DirectIO {
			line += ", direct I/O"
		}
		out = append(out, line)
	}
	if q := r.Queue; q != nil {
		var s []string
		if q.Scheduler != "" {
			s = append(s, "scheduler "+q.Scheduler)
		}
		if q.ReadAheadKB != nil {
			s = append(s, fmt.Sprintf("read-ahead %d KiB", *q.ReadAheadKB))
		}
		if q.Rotational != nil {
			s = append(s, fmt.Sprintf("rotational %v", *q.Rotational))
		}
		if q.Discard != nil {
			s = append(s, fmt.Sprintf("discard %v", *q.Discard))
		}
		if len(s) > 0 {
			out = append(out, "queue: "+strings.Join(s, ", "))
		}
	}
	return out
}

func hopText(h probe.Hop) string {
	var s []string
	if h.Detail != "" {
		s = append(s, h.Detail)
	} else if h.SpeedMbps > 0 {
		s = append(s, fmt.Sprintf("%d Mb/s", h.SpeedMbps))
	}
	if h.Driver != "" && !strings.Contains(h.Detail, h.Driver) {
		s = append(s, "driver "+h.Driver)
	}
	return strings.Join(s, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// bytesHuman prints SI units, as drive makers label capacity.
func bytesHuman(b uint64) string {
	switch {
	case b >= 1e12:
		return fmt.Sprintf("%.2f TB", float64(b)/1e12)
	case b >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(b)/1e9)
	case b >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(b)/1e6)
	case b >= 1e3:
		return fmt.Sprintf("%.1f kB", float64(b)/1e3)
	}
	return fmt.Sprintf("%d B", b)
}
