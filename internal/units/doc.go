// Package units prints quantities for people: byte counts in SI units (as drives are labelled
// and as "wrote 388.4 MB" reads) and in binary units (as budgets and block sizes are set).
//
// It sits below every other package (it imports only fmt) so that the runner, advice, report and
// the flash tools print a byte count the same way instead of each keeping a formatter.
package units
