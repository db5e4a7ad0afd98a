// Package sdreg decodes the identification and status registers of SD cards and eMMC
// devices (CID, CSD, SCR, SSR) from the hex text Linux prints in
// /sys/block/mmcblkN/device/{cid,csd,scr,ssr}, and holds the table of SD manufacturer ids and
// the counterfeit heuristics built on them.
//
// It is pure: it never reads files or devices (the probe package does and hands it strings),
// and it never panics on any input; malformed text is an error that names the register.
// Bit layouts follow the SD Association's Physical Layer Simplified Specification (CID 5.2,
// CSD 5.3, SCR 5.6, SSR 4.10.2) and JEDEC JESD84 for the eMMC CID, as the Linux kernel's
// drivers/mmc/core/sd.c and mmc.c decode them. See docs/sd-identification.md.
package sdreg
