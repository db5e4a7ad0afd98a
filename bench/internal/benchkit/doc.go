// Package benchkit holds what the programs under bench/ share: their main (flags, exit
// statuses, a context that SIGINT cancels), progress lines, the peer-tool check, the -iomark
// binary under test (a given path, or a build of this module stamped with its commit), the
// machine facts and heading every report quotes (date, CPU, cores, kernel, load average), and
// the -raw JSON file.
package benchkit
