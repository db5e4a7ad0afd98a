package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/iomark/iomark/internal/health"
	"github.com/iomark/iomark/internal/probe"
	"github.com/iomark/iomark/internal/record"
)

// Info prints `iomark info` for people: the probe report as a tree from the target down to
// the drive, then the link from the drive up to the CPU with each hop's ceiling, the board,
// the probe's notes, what the drive reports about its health (h, may be nil), and the findings
// with their fix and evidence.
func Info(w io.Writer, r *probe.Report, h *health.Health, findings []record.Finding) error {
	if r == nil {
		return fmt.Errorf("info report: no probe report given")
	}
	var b strings.Builder
	var p printf = func(format string, a ...any) { fmt.Fprintf(&b, format+"\n", a...) }
	p("%s", r.Target)
	infoTree(p, r)
	infoLink(p, r)
	if c := r.Ceiling; c != nil {
		p("")
		p("ceiling: %.0f MB/s, set by the %s hop: %s (%s)", c.MBPerS, c.Bus, c.Basis, c.Source)
	}
	infoBoard(p, r.Board)
	for _, n := range r.Notes {
		p("note: %s", n)
	}
	for _, line := range healthLines(h) {
		p("%s", line)
	}
	p("")
	if len(findings) == 0 {
		p("findings: none")
	} else {
		p("findings:")
		for _, f := range findings {
			p("  %-4s %s: %s", f.Severity, f.ID, f.Message)
			if f.Fix != "" {
				p("       fix: %s", f.Fix)
			}
			if f.Evidence != "" {
				p("       evidence: %s", f.Evidence)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// infoTree is where the target lives: its filesystem, partition and disk, each a branch
// below the one before.
func infoTree(p printf, r *probe.Report) {
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
			fmtBytes(pt.StartBytes), fmtBytes(pt.SizeBytes), al)
	}
	if d := r.Device; d != nil {
		id := strings.TrimSpace(d.Vendor + " " + d.Model)
		if id != "" {
			id = ", " + id
		}
		branch("disk %s: %s, %s%s", d.Path, d.Class, fmtBytes(d.CapacityBytes), id)
		for _, line := range detailLines(r) {
			p("%s%s", indent, line)
		}
	}
}

// infoLink is the link chain from the drive up to the CPU.
func infoLink(p printf, r *probe.Report) {
	if len(r.Link) == 0 {
		return
	}
	p("")
	p("link, from the drive up to the CPU:")
	for i, h := range r.Link {
		glyph := "├─"
		if i == len(r.Link)-1 && r.Board == nil {
			glyph = "└─"
		}
		p("  %s %s", glyph, hopLine(h))
	}
	if r.Board != nil {
		model := r.Board.Model
		if model == "" {
			model = "this machine"
		}
		p("  └─ CPU %s", model)
	}
}

// infoBoard is the board: model, revision, temperature, throttling, CPUs, memory and kernel.
func infoBoard(p printf, b *probe.Board) {
	if b == nil {
		return
	}
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
		s = append(s, fmtBytes(b.MemoryBytes)+" RAM")
	}
	if len(s) > 0 {
		p("  %s", strings.Join(s, ", "))
	}
	kernel := orDash(b.Kernel)
	if b.Arch != "" {
		kernel += " " + b.Arch
	}
	p("  kernel %s, %s", kernel, orDash(b.OS))
}

// detailLines describes the transport-specific identity under the disk line.
func detailLines(r *probe.Report) []string {
	var out []string
	if r.SD != nil {
		out = append(out, sdLines(r.SD)...)
	}
	if r.USB != nil {
		out = append(out, usbLines(r.USB)...)
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

// sdLines describes an SD card or eMMC: its identity, classes, bus and anything suspect.
func sdLines(s *probe.SD) []string {
	var out []string
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
		cls = append(cls, "CSD capacity "+fmtBytes(s.CapacityBytes))
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
		out = append(out, "registers unlike a genuine card's: "+strings.Join(s.SuspectReasons, "; "))
	}
	return out
}

// usbLines describes a USB drive: its ids, the bridge and the drive behind it, the hubs on
// the way.
func usbLines(u *probe.USB) []string {
	var out []string
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
	return out
}

// healthLines describes what the drive reported about itself: one summary line, the
// temperature and note when there are any.
func healthLines(h *health.Health) []string {
	if h == nil {
		return nil
	}
	if h.Source == health.SourceNone {
		return []string{"", "health: not reported — " + h.Note}
	}
	out := []string{"", fmt.Sprintf("health (%s): %s", h.Source, h.Summary())}
	var more []string
	if h.TemperatureC != nil {
		more = append(more, fmt.Sprintf("%.0f °C", *h.TemperatureC))
	}
	if h.MediaErrors != nil {
		more = append(more, fmt.Sprintf("%d media errors", *h.MediaErrors))
	}
	if h.AvailableSparePct != nil {
		more = append(more, fmt.Sprintf("spare %d%%", *h.AvailableSparePct))
	}
	if h.PercentageUsedBasis != "" {
		more = append(more, "wear from "+h.PercentageUsedBasis)
	}
	if h.Family != "" {
		more = append(more, "attribute table "+h.Family)
	}
	if len(more) > 0 {
		out = append(out, "  "+strings.Join(more, ", "))
	}
	if h.Note != "" {
		out = append(out, "  note: "+h.Note)
	}
	return out
}
