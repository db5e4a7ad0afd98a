// Package stats holds the statistics iomark reports: latency histograms and their percentiles
// (HDR histograms), and later confidence intervals, steady-state and outlier detection.
// It does no I/O and knows nothing of devices.
package stats
