// Package stats holds the statistics iomark reports: latency histograms and their percentiles
// (HDR histograms); summaries of repeated runs with a 95% confidence interval of the median;
// the rule that decides when a figure has been repeated enough; outliers; warnings for people
// (noisy figures, outliers, single runs); steady-state detection and the throughput cliff of
// a sustained write (an SLC cache filling up, thermal throttling).
//
// It does no I/O, knows nothing of devices, never prints and never panics on any input: the
// runner feeds it numbers and gets values back. The rules and their constants are documented
// beside the code and in docs/statistics.md.
package stats
