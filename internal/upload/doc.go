// Package upload is the client of a results server (iomark serve): it sends one result record
// to POST /api/v1/results and returns the stored result's id and permalink.
//
// It owns what leaves the machine: before anything is sent it removes every hostname, at any
// depth, and the paths that may name the user (target.path, mount.mount_point). It reads no
// database, measures nothing and prints nothing; the caller gives it the record's JSON.
package upload
