package server

import "github.com/iomark/iomark/internal/record"

// Bounds of an uploaded record, by JSON path ("[]" stands for any array index). They become the
// upload schema of the OpenAPI document and are what check.go enforces: one table, so the two
// cannot differ. They are generous (a run on any drive made fits far inside) and exist so a
// hostile upload cannot store absurd figures or make pages expensive; whether figures are
// plausible for their drive is plausible.go's question, not a reason to refuse.
//
// Every number has a range here (a test fails otherwise); strings default to maxText code
// points and arrays to maxItemsDefault items.
const (
	maxText         = 1024 // code points of any string not named below
	maxName         = 128  // names that become columns and links: board, vendor, model
	maxItemsDefault = 100
	maxTests        = 500
	maxHops         = 16
	maxFindings     = 200
	maxSeries       = 100000
	maxMBPerS       = 1e6   // 1 TB/s: no storage link reaches it
	maxIOPS         = 1e8   // 100 million I/O per second
	maxLatencyUS    = 3.6e9 // an hour
	maxDurationS    = 7 * 24 * 3600
	maxBytes        = 1e18
	maxLinkMbps     = 1e7
	maxTempC        = 300
	minTempC        = -100
)

// Patterns of the upload schema, shared with the query parameters that name the same things.
const (
	idPattern       = `^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`
	testNamePattern = `^[A-Za-z0-9][A-Za-z0-9._:+-]{0,63}$`
	// serialPattern: the first 16 hex digits of the serial's SHA-256, as iomark sends it; a raw
	// serial number is refused.
	serialPattern = `^([0-9a-f]{16})?$`
	// reservedIDPattern: ids the server gives its own results (published reference results,
	// SeedPublished); an upload may not take one, or a later release's row would be blocked.
	reservedIDPattern = `^published-`
)

func rng(lo, hi float64) limit { return limit{min: lo, max: hi} }
func text(n int) limit         { return limit{maxLen: n} }
func items(n int) limit        { return limit{maxLen: n} }

var (
	mbPerS   = rng(0, maxMBPerS)
	linkMbps = rng(0, maxLinkMbps)
	bytesLim = rng(0, maxBytes)
	tempC    = rng(minTempC, maxTempC)
	seconds  = rng(0, maxDurationS)
	latency  = rng(0, maxLatencyUS)
	counter  = rng(0, 9e15) // below 2^53: the checker compares exactly (9 PB, 10^12 hours)
	watts    = rng(0, 1e5)
	serial   = limit{pattern: serialPattern, description: "first 16 hex digits of the serial number's SHA-256; raw serial numbers are refused"}
)

var uploadLimits = map[string]limit{
	"schema_version": {min: 1, max: record.SchemaVersion, required: true},
	"id": {pattern: idPattern, notPattern: reservedIDPattern, required: true,
		description: "1 to 64 letters, digits, '.', '_' or '-' (iomark makes a UUID); ids starting published- are the server's"},
	"created_at":           {required: true},
	"profile":              {minLen: 1, maxLen: 64, required: true},
	"tool_version":         text(64),
	"tool_commit":          text(64),
	"settings_fingerprint": text(128),
	"duration_s":           seconds,
	"bytes_written":        bytesLim,
	"price_usd":            rng(0, 1e6),
	"target.kind":          text(16),

	"host.model":            text(maxName),
	"host.revision":         text(32),
	"host.pi.memory_mb":     rng(0, 1<<24),
	"host.soc_temp_c":       tempC,
	"host.throttled.raw":    text(32),
	"host.memory_bytes":     bytesLim,
	"host.cpus":             rng(0, 65536),
	"device.name":           text(64),
	"device.class":          text(32),
	"device.vendor":         text(maxName),
	"device.model":          text(maxName),
	"device.capacity_bytes": bytesLim,
	"device.serial_hash":    serial,

	"link":                    items(maxHops),
	"link[].bus":              text(16),
	"link[].name":             text(64),
	"link[].speed_mbps":       linkMbps,
	"link[].max_speed_mbps":   linkMbps,
	"link[].driver":           text(64),
	"link[].ceiling_mb_per_s": mbPerS,

	"usb.vid":                     text(16),
	"usb.pid":                     text(16),
	"usb.driver":                  text(64),
	"usb.speed_mbps":              linkMbps,
	"usb.max_speed_mbps":          linkMbps,
	"usb.port_max_speed_mbps":     linkMbps,
	"usb.serial_hash":             serial,
	"usb.hubs":                    items(maxHops),
	"usb.scsi_vendor":             text(maxName),
	"usb.scsi_model":              text(maxName),
	"usb.drive.model":             text(maxName),
	"usb.drive.serial_hash":       serial,
	"usb.drive.rotation_rate_rpm": rng(0, 100000),
	"usb.drive.sata_gbps":         rng(0, 100),

	"sd.type":            text(8),
	"sd.manfid":          rng(0, 255),
	"sd.oemid":           text(16),
	"sd.name":            text(maxName),
	"sd.serial_hash":     serial,
	"sd.capacity_bytes":  bytesLim,
	"sd.speed_class":     rng(0, 100),
	"sd.uhs_class":       rng(0, 100),
	"sd.video_class":     rng(0, 1000),
	"sd.app_class":       text(8),
	"sd.suspect_reasons": items(16),
	"sd.timing":          text(32),
	"sd.clock_hz":        rng(0, 1e10),
	"sd.bus_width_bits":  rng(0, 64),
	// The erase-block hints (SSR AU_SIZE, CSD SECTOR_SIZE, preferred_erase_size).
	"sd.au_size_bytes":         bytesLim,
	"sd.erase_sector_bytes":    bytesLim,
	"sd.preferred_erase_bytes": bytesLim,

	"nvme.model":          text(maxName),
	"nvme.serial_hash":    serial,
	"nvme.pcie_gen":       rng(0, 16),
	"nvme.pcie_width":     rng(0, 64),
	"nvme.pcie_max_gen":   rng(0, 16),
	"nvme.pcie_max_width": rng(0, 64),
	"nvme.port_max_gen":   rng(0, 16),
	"nvme.port_max_width": rng(0, 64),
	"nvme.temp_c":         tempC,

	"sata.link_gbps":         rng(0, 100),
	"sata.max_link_gbps":     rng(0, 100),
	"sata.model":             text(maxName),
	"sata.rotation_rate_rpm": rng(0, 100000),
	"sata.serial_hash":       serial,
	"sata.temp_c":            tempC,

	"partition.number":      rng(0, 1<<20),
	"partition.start_bytes": bytesLim,
	"partition.size_bytes":  bytesLim,

	"queue.read_ahead_kb":        rng(0, 1<<30),
	"queue.logical_block_bytes":  rng(0, 1<<20),
	"queue.physical_block_bytes": rng(0, 1<<20),
	"queue.nr_requests":          rng(0, 1<<20),

	// Drive health (NVMe SMART log, ATA SMART, eMMC life), power and network copy.
	// Counters as drives report them can be anything a uint64 holds; refusing the upload for
	// one would lose the run, so only their sign and size are bounded.
	"health.percentage_used":                   rng(0, 255),
	"health.available_spare_pct":               rng(0, 255),
	"health.available_spare_threshold_pct":     rng(0, 255),
	"health.power_on_hours":                    counter,
	"health.power_cycles":                      counter,
	"health.unsafe_shutdowns":                  counter,
	"health.media_errors":                      counter,
	"health.reallocated_sectors":               counter,
	"health.pending_sectors":                   counter,
	"health.data_read_bytes":                   counter,
	"health.data_written_bytes":                counter,
	"health.temperature_c":                     tempC,
	"health.attributes":                        items(256),
	"health.attributes[].id":                   rng(0, 255),
	"health.attributes[].value":                rng(0, 255),
	"health.attributes[].worst":                rng(0, 255),
	"health.attributes[].threshold":            rng(0, 255),
	"health.attributes[].raw":                  rng(0, 1<<48),
	"power.meter_watts":                        watts,
	"sensors[].power_w":                        watts,
	"tests[].power_w":                          watts,
	"tests[].energy_j_per_gb":                  rng(0, 1e9),
	"tests[].network.mb_per_s":                 mbPerS,
	"tests[].network.drive_mb_per_s":           mbPerS,
	"tests[].network.local_sustained_mb_per_s": mbPerS,
	"tests[].network.received_bytes":           bytesLim,
	"tests[].network.network_wait_pct":         rng(0, 1000),
	"tests[].network.drive_wait_pct":           rng(0, 1000),

	"ceiling_mb_per_s": mbPerS,
	"ceiling.mb_per_s": mbPerS,
	"ceiling.bus":      text(16),

	"tests":              items(maxTests),
	"tests[].name":       {pattern: testNamePattern, required: true, description: "stable test name, e.g. rand-read-4k-qd32 (docs/methodology.md)"},
	"tests[].op":         text(32),
	"tests[].bs":         rng(0, 1<<30),
	"tests[].qd":         rng(0, 65536),
	"tests[].jobs":       rng(0, 4096),
	"tests[].engine":     text(32),
	"tests[].iops":       rng(0, maxIOPS),
	"tests[].mb_per_s":   mbPerS,
	"tests[].mib_per_s":  mbPerS,
	"tests[].primary":    {enum: []any{"", "iops", "mb_per_s"}},
	"tests[].lat_us.p50": latency,
	"tests[].lat_us.p90": latency, "tests[].lat_us.p99": latency, "tests[].lat_us.p999": latency,
	"tests[].lat_us.max": latency, "tests[].lat_us.mean": latency,
	"tests[].ci95_pct":                        rng(0, 1000),
	"tests[].runs":                            rng(0, 10000),
	"tests[].run_values":                      items(10000),
	"tests[].run_values[]":                    rng(0, maxIOPS),
	"tests[].duration_s":                      seconds,
	"tests[].bytes":                           bytesLim,
	"tests[].working_set_bytes":               bytesLim,
	"tests[].ramp_s":                          seconds,
	"tests[].warm_up_s":                       seconds,
	"tests[].burst.s":                         seconds,
	"tests[].burst.x":                         rng(0, 1e6),
	"tests[].ceiling_pct":                     rng(0, 1e6),
	"tests[].cpu_pct":                         rng(0, 100*4096), // 100 per busy core
	"tests[].series":                          items(maxSeries),
	"tests[].series[].t_s":                    seconds,
	"tests[].series[].iops":                   rng(0, maxIOPS),
	"tests[].series[].mb_per_s":               mbPerS,
	"tests[].sustained.cliff_at_bytes":        bytesLim,
	"tests[].sustained.cliff_at_s":            seconds,
	"tests[].sustained.before_mb_per_s":       mbPerS,
	"tests[].sustained.after_mb_per_s":        mbPerS,
	"tests[].sustained.drop_pct":              rng(-1000, 1000),
	"tests[].sustained.steady_mb_per_s":       mbPerS,
	"tests[].sustained.average_mb_per_s":      mbPerS,
	"tests[].sustained.written_bytes":         bytesLim,
	"tests[].sustained.file_size_limit_bytes": bytesLim,
	"tests[].sustained.files":                 rng(0, 1<<20),
	"tests[].sustained.stop_reason":           text(32),
	"drive_temp.source":                       text(32),
	"drive_temp.sensor":                       text(256),
	"drive_temp.every_s":                      seconds,

	// Scores are recomputed by the server (plausible.go); an upload's are bounded and ignored.
	"scores.iomark":       rng(0, 1e9),
	"scores.pibenchmarks": rng(0, 1e9),

	"findings":            items(maxFindings),
	"findings[].id":       text(64),
	"findings[].severity": text(16),

	"sensors":                items(maxSeries),
	"sensors[].t_s":          seconds,
	"sensors[].test":         text(64),
	"sensors[].soc_temp_c":   tempC,
	"sensors[].drive_temp_c": tempC,
	"sensors[].throttled":    text(16),
	"warnings":               items(maxFindings),
	"warnings[]":             {alsoText: true, description: "{code, message}; schema 1 records carry bare sentences"},
	"warnings[].code":        text(64),
}
