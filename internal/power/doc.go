// Package power reads the power a machine draws, where it reports it in software: the power
// monitors the kernel exposes through hwmon (INA2xx-class boards, INA3221, LTC and PMBus
// hot-swap controllers), and the Raspberry Pi 5 PMIC's ADC read through the firmware mailbox
// (/dev/vcio, the property interface `vcgencmd pmic_read_adc` uses). A reading typed from a
// meter (--power-watts) stands in where nothing is readable. USB-C PD ports also appear in
// hwmon, but with their negotiated contract, not a measurement: they are never read as power,
// and PDNote says why (typec.go).
//
// One source per file behind the Sampler interface; decoders of the firmware's reply and the
// hwmon table are tested on captured data (testdata/SOURCES.md). Every reader takes the probe
// options' root, so tests read fixture trees, and every blocking read is bounded by the probe
// timeout.
//
// What it must not do: write anything (the mailbox message only asks the firmware to read its
// ADC), or present a partial figure as the whole board's: each source says what its figure
// covers (Info.Scope).
package power
