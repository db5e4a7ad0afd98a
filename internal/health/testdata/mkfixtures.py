#!/usr/bin/env python3
"""Writes the byte fixtures of internal/health from public smartctl / nvme outputs and the
layouts of the specifications (SOURCES.md says where each value comes from). It is separate,
independent code from the Go decoders on purpose: a misreading of a layout in one does not
cancel out in the other. Run: python3 mkfixtures.py (from this directory)."""
import struct

def hexdump(path, b, comment):
    with open(path, "w") as f:
        for line in comment.strip().splitlines():
            f.write("# " + line + "\n")
        for off in range(0, len(b), 16):
            f.write("%04x: %s\n" % (off, " ".join("%02x" % c for c in b[off:off + 16])))

def checksum(b):
    b[511] = (-sum(b[:511])) & 0xff

# ---- ATA: SFF-8035i / ATA8-ACS SMART READ DATA and READ THRESHOLDS layouts ----
def smart_data(rows):
    """rows: (id, flags, value, worst, raw) -> 512-byte SMART READ DATA, revision 0x0010."""
    b = bytearray(512)
    struct.pack_into("<H", b, 0, 0x0010)
    for i, (aid, flags, value, worst, raw) in enumerate(rows):
        off = 2 + 12 * i
        b[off] = aid
        struct.pack_into("<H", b, off + 1, flags)
        b[off + 3] = value
        b[off + 4] = worst
        b[off + 5:off + 11] = raw.to_bytes(6, "little") if isinstance(raw, int) else bytes(raw)
    checksum(b)
    return b

def smart_thresholds(rows):
    """rows: (id, threshold)."""
    b = bytearray(512)
    struct.pack_into("<H", b, 0, 0x0010)
    for i, (aid, th) in enumerate(rows):
        off = 2 + 12 * i
        b[off] = aid
        b[off + 1] = th
    checksum(b)
    return b

def identify(model, words):
    """ATA IDENTIFY DEVICE: model in words 27-46 (byte-swapped pairs), then given words."""
    b = bytearray(512)
    m = model.ljust(40).encode()
    for i in range(0, 40, 2):
        b[54 + i] = m[i + 1]
        b[55 + i] = m[i]
    for w, v in words.items():
        struct.pack_into("<H", b, 2 * w, v)
    return b

def ata_fixture(name, comment, model, idwords, rows, thresholds, sct=None):
    parts = [identify(model, idwords), smart_data(rows), smart_thresholds(thresholds)]
    if sct is not None:
        parts.append(sct)
    hexdump("ata/%s.hex" % name, b"".join(parts),
            comment + "\nsectors: IDENTIFY DEVICE, SMART READ DATA, SMART READ THRESHOLDS" +
            (", SCT status" if sct is not None else ""))

# SMART supported and enabled (82/85 bit 0, 83/87 bits 15:14 = 01b); 217 = 1: non-rotating.
SSD = {82: 0x4001, 83: 0x4000, 85: 0x4001, 87: 0x4000, 217: 1}

# QEMU's emulated IDE/AHCI disk (hw/ide/core.c): IDENTIFY words 82-87 and the smart_attributes
# table ("based on a Seagate ST3500418AS"); READ DATA copies bytes 0-10 of each row, READ
# THRESH puts row[11] after the id.
qemu_rows = [
    (0x01, 0x0003, 0x64, 0x64, bytes([0, 0, 0, 0, 0, 0])),
    (0x03, 0x0003, 0x64, 0x64, bytes([0x10, 0, 0, 0, 0, 0])),
    (0x04, 0x0002, 0x64, 0x64, bytes([0x64, 0, 0, 0, 0, 0])),
    (0x05, 0x0003, 0x64, 0x64, bytes([0, 0, 0, 0, 0, 0])),
    (0x09, 0x0003, 0x64, 0x64, bytes([0x01, 0, 0, 0, 0, 0])),
    (0x0c, 0x0003, 0x64, 0x64, bytes([0, 0, 0, 0, 0, 0])),
    (190, 0x0003, 0x45, 0x45, bytes([0x1f, 0, 0x1f, 0x1f, 0, 0])),
]
qemu_th = [(0x01, 0x06), (0x03, 0x00), (0x04, 0x14), (0x05, 0x24), (0x09, 0x00), (0x0c, 0x00), (190, 0x32)]
ata_fixture("qemu-ide", "QEMU emulated IDE/AHCI disk, from hw/ide/core.c (smart_attributes, ide_identify, cmd_smart)",
            "QEMU HARDDISK", {82: (1 << 14) | 1, 83: (1 << 14) | (1 << 13) | (1 << 12) | (1 << 10), 84: 1 << 14,
                              85: (1 << 14) | (1 << 5) | 1, 86: (1 << 14) | (1 << 13) | (1 << 12) | (1 << 10), 87: 1 << 14},
            qemu_rows, qemu_th)

# Samsung SSD 850 EVO 500GB, nearly worn out: Napsty/check_smart issue 73 (smartctl -a rows
# 5, 9, 12, 177, 179 and the perfdata raw values of the others).
ata_fixture("samsung-850evo-worn", "Samsung SSD 850 EVO 500GB at Wear_Leveling_Count 001: github.com/Napsty/check_smart/issues/73",
            "Samsung SSD 850 EVO 500GB", SSD, [
                (5, 0x0033, 100, 100, 0), (9, 0x0032, 95, 95, 20837), (12, 0x0032, 99, 99, 2),
                (177, 0x0013, 1, 1, 2981), (179, 0x0013, 100, 100, 0), (181, 0x0032, 100, 100, 0),
                (182, 0x0032, 100, 100, 0), (183, 0x0013, 100, 100, 0), (187, 0x0032, 100, 100, 0),
                (190, 0x0032, 76, 60, 24), (195, 0x001a, 200, 200, 0), (199, 0x003e, 100, 100, 0),
                (235, 0x0012, 99, 99, 0), (241, 0x0032, 99, 99, 572549452098)],
            [(5, 10), (9, 0), (12, 0), (177, 0), (179, 10), (181, 10), (182, 10), (183, 10), (187, 0),
             (190, 0), (195, 0), (199, 0), (235, 0), (241, 0)])

# Samsung SSD 860 QVO 1TB, new: thomas-krenn/check_smart_attributes pull request 74.
ata_fixture("samsung-860qvo", "Samsung SSD 860 QVO 1TB, 7 power-on hours: github.com/thomas-krenn/check_smart_attributes/pull/74",
            "Samsung SSD 860 QVO 1TB", SSD, [
                (5, 0x0033, 100, 100, 0), (9, 0x0032, 99, 99, 7), (12, 0x0032, 99, 99, 5),
                (177, 0x0013, 100, 100, 0), (179, 0x0013, 100, 100, 0), (181, 0x0032, 100, 100, 0),
                (182, 0x0032, 100, 100, 0), (183, 0x0013, 100, 100, 0), (187, 0x0032, 100, 100, 0),
                (190, 0x0032, 74, 61, 26)],
            [(5, 10), (9, 0), (12, 0), (177, 0), (179, 10), (181, 10), (182, 10), (183, 10), (187, 0), (190, 0)])

# Crucial BX500 120GB: matusnovak/prometheus-smartctl issue 56 (rows 1 to 187 as printed).
ata_fixture("crucial-bx500", "Crucial CT120BX500SSD1, 32867 power-on hours: github.com/matusnovak/prometheus-smartctl/issues/56",
            "CT120BX500SSD1", SSD, [
                (1, 0x002f, 100, 100, 0), (5, 0x0032, 100, 100, 0), (9, 0x0032, 100, 100, 32867),
                (12, 0x0032, 100, 100, 14), (171, 0x0032, 100, 100, 0), (172, 0x0032, 100, 100, 0),
                (173, 0x0032, 100, 100, 245), (174, 0x0032, 100, 100, 7), (180, 0x0032, 100, 100, 100),
                (183, 0x0032, 100, 100, 0), (184, 0x0032, 100, 100, 0), (187, 0x0032, 100, 100, 0)],
            [(1, 50), (5, 10), (9, 50), (12, 50), (171, 50), (172, 50), (173, 50), (174, 50), (180, 50),
             (183, 50), (184, 50), (187, 50)])

# Crucial MX500 1TB at 99% of its life used (Napsty/check_smart issue 66: "202 ... reached a
# value of 99 (99% used) ... FAILING_NOW"); the 202 row's flags and threshold and the 246 and
# 197 rows are typical MX500 values, not from that dump (SOURCES.md).
ata_fixture("crucial-mx500-worn", "Crucial CT1000MX500SSD1 with Percent_Lifetime_Remain raw 99: github.com/Napsty/check_smart/issues/66 (partly synthetic, see SOURCES.md)",
            "CT1000MX500SSD1", SSD, [
                (1, 0x002f, 100, 100, 0), (5, 0x0032, 100, 100, 0), (9, 0x0032, 100, 100, 12000),
                (12, 0x0032, 100, 100, 40), (197, 0x0032, 100, 100, 1), (202, 0x0030, 1, 1, 99),
                (246, 0x0032, 100, 100, 23996625190)],
            [(1, 0), (5, 10), (9, 0), (12, 0), (197, 0), (202, 1), (246, 0)])

# SCT status (ACS-4 Table 194): format version 3, current temperature 35 °C at byte 200,
# min/max this power cycle 30/41, lifetime 20/55, max operating 70. Built from the table.
sct = bytearray(512)
struct.pack_into("<HHH", sct, 0, 3, 0x0100, 1)
sct[200:206] = bytes([35, 30, 41, 20, 55, 70])
ata_fixture("sct-35c", "an SSD of no known family with SCT status (layout of ACS-4 Table 194, values made up)",
            "ACME SSD 256GB", {**SSD, 206: 0x0001}, [(9, 0x0032, 100, 100, 1000), (194, 0x0022, 65, 50, bytes([40, 0, 20, 0, 50, 0]))],
            [(9, 0), (194, 0)], sct)

# ---- NVMe: SMART / Health Information log (NVMe 2.0 Figure 207) ----
def nvme_log(cw=0, temp_k=0, spare=0, spare_th=0, used=0, dur=0, duw=0, hrc=0, hwc=0, busy=0,
             cycles=0, poh=0, unsafe=0, media=0, errlog=0, sensors=()):
    b = bytearray(512)
    b[0] = cw
    struct.pack_into("<H", b, 1, temp_k)
    b[3], b[4], b[5] = spare, spare_th, used
    for off, v in ((32, dur), (48, duw), (64, hrc), (80, hwc), (96, busy), (112, cycles),
                   (128, poh), (144, unsafe), (160, media), (176, errlog)):
        b[off:off + 16] = v.to_bytes(16, "little")
    for i, t in enumerate(sensors):
        struct.pack_into("<H", b, 200 + 2 * i, t)
    return b

# canonical/checkbox issue 102: smartctl's "SMART/Health Information (NVMe Log 0x02)".
hexdump("nvme/checkbox-102.hex", nvme_log(
    cw=0, temp_k=30 + 273, spare=100, spare_th=10, used=0, dur=19683018, duw=64768925,
    hrc=490830081, hwc=1608404624, busy=1302, cycles=3693, poh=6726, unsafe=3682, media=0,
    errlog=4804, sensors=(30 + 273, 39 + 273, 47 + 273)),
    "NVMe SMART/Health log with the values of github.com/canonical/checkbox/issues/102")

# smartmontools issue 537: a Samsung MZVL2512HCJQ-00B00 at 100% used sets Critical Warning
# 0x04 (reliability degraded). Fields the issue does not print are zero.
hexdump("nvme/smartmontools-537.hex", nvme_log(cw=0x04, temp_k=28 + 273, spare=100, spare_th=10, used=100),
        "NVMe SMART/Health log with the values of github.com/smartmontools/smartmontools/issues/537")
