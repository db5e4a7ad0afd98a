// Package benchkit holds what the programs under bench/ share: getting the iomark binary
// under test (a given path, or a build of this module stamped with its commit) and the
// machine facts every report header quotes (date, CPU, cores, kernel, load average).
package benchkit
