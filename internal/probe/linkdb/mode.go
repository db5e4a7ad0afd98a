package linkdb

import "strings"

// sdModes names each bus mode as probe records it in a result (SD.Timing: the last word of the
// kernel's timing name, "HS" for either high speed, "DS" for legacy; probe/mmc.go timingName)
// on its bus ("sd" or "mmc", the hop's bus), with the kernel timing name SD takes.
var sdModes = map[[2]string]string{
	{"sd", "DS"}: "legacy", {"mmc", "DS"}: "legacy",
	{"sd", "HS"}: "sd high-speed", {"mmc", "HS"}: "mmc high-speed",
	{"sd", "SDR12"}: "sd uhs sdr12", {"sd", "SDR25"}: "sd uhs sdr25", {"sd", "SDR50"}: "sd uhs sdr50",
	{"sd", "SDR104"}: "sd uhs sdr104", {"sd", "DDR50"}: "sd uhs ddr50",
	{"mmc", "DDR52"}: "mmc ddr52", {"mmc", "HS200"}: "mmc hs200", {"mmc", "HS400"}: "mmc hs400",
}

// SDMode is SD for a bus mode as a result record names it: bus "sd" or "mmc" and the short mode
// name ("SDR104", "DDR50", "HS200", "HS", "DS"). An unknown pair is a zero Ceiling.
func SDMode(bus, mode string, clockHz, busWidth int) Ceiling {
	kernel, ok := sdModes[[2]string{strings.ToLower(bus), strings.ToUpper(strings.TrimSpace(mode))}]
	if !ok {
		return Ceiling{}
	}
	return SD(kernel, clockHz, busWidth)
}
