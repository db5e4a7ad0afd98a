package main

import "testing"

func TestMedian(t *testing.T) {
	if median([]float64{3, 1, 2}) != 2 || median([]float64{4, 1, 2, 3}) != 2.5 || median(nil) != 0 {
		t.Error("median wrong")
	}
}

func TestDDRate(t *testing.T) {
	m := ddRate.FindStringSubmatch("536870912 bytes (537 MB, 512 MiB) copied, 13.4 s, 40.1 MB/s")
	if m == nil || m[1] != "40.1" || m[2] != "MB" {
		t.Errorf("dd rate %v", m)
	}
}
