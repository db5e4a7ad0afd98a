package sdreg

// SSR is the SD status register (SD Physical Layer Simplified Specification, section 4.10.2,
// ACMD13): 512 bits of performance classes and erase characteristics.
type SSR struct {
	BusWidth           int    // DAT_BUS_WIDTH [511:510]: current width, 1 or 4 (0 if reserved)
	SecuredMode        bool   `reg:"509"`     // SECURED_MODE
	CardType           uint16 `reg:"495:480"` // SD_CARD_TYPE: 0 regular read/write card
	ProtectedAreaBytes uint32 `reg:"479:448"` // SIZE_OF_PROTECTED_AREA as read (unit depends on capacity class)
	SpeedClass         int    // SPEED_CLASS [447:440] as the class number: 0, 2, 4, 6, 10 (-1 if reserved)
	PerformanceMove    int    `reg:"439:432"` // PERFORMANCE_MOVE in MB/s; 0 = not defined, 255 = infinity
	AUSizeBytes        uint64 // AU_SIZE [431:428]; 0 if not defined
	EraseSize          int    `reg:"423:408"` // ERASE_SIZE: AUs erased per operation, 0 = not supported
	EraseTimeoutS      int    `reg:"407:402"` // ERASE_TIMEOUT, seconds
	EraseOffsetS       int    `reg:"401:400"` // ERASE_OFFSET, seconds
	UHSClass           int    // UHS_SPEED_GRADE [399:396]: 0, 1 or 3 (-1 if reserved)
	UHSAUSizeBytes     uint64 // UHS_AU_SIZE [395:392]; 0 if not defined
	VideoClass         int    // VIDEO_SPEED_CLASS [391:384]: 0, 6, 10, 30, 60, 90 (-1 if reserved)
	VSCAUSizeMB        int    `reg:"377:368"` // VSC_AU_SIZE
	SUSAddr            uint32 `reg:"367:346"` // SUS_ADDR
	AppClass           string // APP_PERF_CLASS [339:336]: "", "A1", "A2" ("reserved" otherwise)
	PerformanceEnhance uint8  `reg:"335:328"` // PERFORMANCE_ENHANCE: cache, host/card queueing bits
	CommandQueueDepth  int    // from PERFORMANCE_ENHANCE [332:328]: queue depth, 0 = no queueing
	CacheSupport       bool   `reg:"333"` // PERFORMANCE_ENHANCE bit 333
	HostMaintenance    bool   `reg:"335"` // PERFORMANCE_ENHANCE bit 335
	CardMaintenance    bool   `reg:"334"` // PERFORMANCE_ENHANCE bit 334
	DiscardSupport     bool   `reg:"313"` // DISCARD_SUPPORT
	FULESupport        bool   `reg:"312"` // FULE_SUPPORT
}

// auSizes maps AU_SIZE codes to bytes (Table 4-47): 16 KB .. 64 MB; 0 is "not defined".
var auSizes = [16]uint64{
	0, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20,
	2 << 20, 4 << 20, 8 << 20, 12 << 20, 16 << 20, 24 << 20, 32 << 20, 64 << 20,
}

// DecodeSSR decodes the 128 hex digits of /sys/block/mmcblkN/device/ssr, which Linux prints
// as sixteen 32-bit words, most significant first (drivers/mmc/core/sd.c).
func DecodeSSR(hexText string) (SSR, error) {
	s, r, err := decode[SSR]("SSR", hexText, 128)
	if err != nil {
		return SSR{}, err
	}
	switch r.bits(510, 2) {
	case 0:
		s.BusWidth = 1
	case 2:
		s.BusWidth = 4
	}
	s.SpeedClass = speedClass(r.bits(440, 8))
	s.AUSizeBytes = auSizes[r.bits(428, 4)]
	switch g := r.bits(396, 4); g {
	case 0, 1, 3:
		s.UHSClass = int(g)
	default:
		s.UHSClass = -1
	}
	// UHS_AU_SIZE uses the AU_SIZE codes, with 1-6 reserved (Table 4-52).
	if code := r.bits(392, 4); code >= 7 {
		s.UHSAUSizeBytes = auSizes[code]
	}
	switch v := r.bits(384, 8); v {
	case 0, 6, 10, 30, 60, 90:
		s.VideoClass = int(v)
	default:
		s.VideoClass = -1
	}
	switch r.bits(336, 4) {
	case 0:
		s.AppClass = ""
	case 1:
		s.AppClass = "A1"
	case 2:
		s.AppClass = "A2"
	default:
		s.AppClass = "reserved"
	}
	// Command queue support: 0 = none, n = a queue of depth n+1.
	if q := int(r.bits(328, 5)); q > 0 {
		s.CommandQueueDepth = q + 1
	}
	return s, nil
}

// speedClass maps SPEED_CLASS codes (Table 4-45) to class numbers.
func speedClass(code uint64) int {
	switch code {
	case 0:
		return 0
	case 1:
		return 2
	case 2:
		return 4
	case 3:
		return 6
	case 4:
		return 10
	}
	return -1
}
