package record

// Point is the throughput of one interval of the measured window.
type Point struct {
	TS     float64 `json:"t_s"` // end of the interval, seconds since the window began
	IOPS   float64 `json:"iops"`
	MBPerS float64 `json:"mb_per_s"`
}
