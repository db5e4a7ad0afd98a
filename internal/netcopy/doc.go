// Package netcopy is the network-fed sustained write: `iomark sink` receives what `iomark
// send` sends over one TCP connection and writes it to one test file on the target drive with
// the engine's O_DIRECT stream writer, while the sensors are sampled as in a run; the result
// is a record of profile network-copy with the network rate, the drive's rate, the cliff,
// temperatures over time and which side held the copy back.
//
// The sink prints a one-time token; it accepts the first sender that presents it and then no
// other connection, refusing wrong tokens. Greetings run side by side and bounded (at most
// MaxPending, a few per host), so strangers never delay the sender or stop the sink. The sender sends incompressible data that never
// repeats a sector (engine.NewStreamSource).
//
// What it must not do: write outside the target directory (one file, created there and
// removed at the end, success, error, interrupted sender, full drive and Ctrl-C alike), keep
// listening after its one copy, trust a peer's header (bounded in size and time), or compare
// with earlier runs itself (the CLI reads the results database for that).
package netcopy
