// Package linkdb holds the data tables of the link chain between a drive and the CPU: USB
// bridge chips by VID:PID, common USB storage vendors, and the practical throughput ceiling
// of one hop (USB speed and protocol, SD bus mode, PCIe generation and width, SATA), with
// parsers for the sysfs text those hops are read from (USB speed, PCIe link speed and width,
// SATA link speed).
//
// It is pure data and arithmetic: no I/O, no guesses. An input it does not know gives a zero
// Ceiling or ok=false, never an invented figure. Each figure and VID:PID carries its source:
// in a comment beside it and, for ceilings, in docs/ceilings.md under the anchor named by
// Ceiling.Source.
package linkdb
