package sdreg

// SSR is the SD status register (SD Physical Layer Simplified Specification, section 4.10.2,
// ACMD13): 512 bits of performance classes and erase characteristics.
type SSR struct {
	BusWidth           int    // DAT_BUS_WIDTH [511:510]: current width, 1 or 4 (0 if reserved)
	SecuredMode        bool   // SECURED_MODE [509]
	CardType           uint16 // SD_CARD_TYPE [495:480]: 0 regular read/write card
	ProtectedAreaBytes uint32 // SIZE_OF_PROTECTED_AREA [479:448] as read (unit depends on capacity class)
	SpeedClass         int    // SPEED_CLASS [447:440] as the class number: 0, 2, 4, 6, 10 (-1 if reserved)
	PerformanceMove    int    // PERFORMANCE_MOVE [439:432] in MB/s; 0 = not defined, 255 = infinity
	AUSizeBytes        uint64 // AU_SIZE [431:428]; 0 if not defined
	EraseSize          int    // ERASE_SIZE [423:408]: AUs erased per operation, 0 = not supported
	EraseTimeoutS      int    // ERASE_TIMEOUT [407:402] seconds
	EraseOffsetS       int    // ERASE_OFFSET [401:400] seconds
	UHSClass           int    // UHS_SPEED_GRADE [399:396]: 0, 1 or 3 (-1 if reserved)
	UHSAUSizeBytes     uint64 // UHS_AU_SIZE [395:392]; 0 if not defined
	VideoClass         int    // VIDEO_SPEED_CLASS [391:384]: 0, 6, 10, 30, 60, 90 (-1 if reserved)
	VSCAUSizeMB        int    // VSC_AU_SIZE [377:368]
	SUSAddr            uint32 // SUS_ADDR [367:346]
	AppClass           string // APP_PERF_CLASS [339:336]: "", "A1", "A2" ("reserved" otherwise)
	PerformanceEnhance uint8  // PERFORMANCE_ENHANCE [335:328]: cache, host/card queueing bits
	CommandQueueDepth  int    // from PERFORMANCE_ENHANCE [332:328]: queue depth, 0 = no queueing
	CacheSupport       bool   // PERFORMANCE_ENHANCE [333]
	HostMaintenance    bool   // PERFORMANCE_ENHANCE [335]
	CardMaintenance    bool   // PERFORMANCE_ENHANCE [334]
	DiscardSupport     bool   // DISCARD_SUPPORT [313]
	FULESupport        bool   // FULE_SUPPORT [312]
}

// auSizes maps AU_SIZE codes to bytes (Table 4-47): 16 KB .. 64 MB; 0 is "not defined".
var auSizes = [16]uint64{
	0, 16 << 10, 32 << 10, 64 << 10, 128 << 10, 256 << 10, 512 << 10, 1 << 20,
	2 << 20, 4 << 20, 8 << 20, 12 << 20, 16 << 20, 24 << 20, 32 << 20, 64 << 20,
}

// DecodeSSR decodes the 128 hex digits of /sys/block/mmcblkN/device/ssr, which Linux prints
// as sixteen 32-bit words, most significant first (drivers/mmc/core/sd.c).
func DecodeSSR(hexText string) (SSR, error) {
	r, err := parseRegister("SSR", hexText, 128)
	if err != nil {
		return SSR{}, err
	}
	var s SSR
	switch r.bits(510, 2) {
	case 0:
		s.BusWidth = 1
	case 2:
		s.BusWidth = 4
	}
	s.SecuredMode = r.bits(509, 1) == 1
	s.CardType = uint16(r.bits(480, 16))
	s.ProtectedAreaBytes = uint32(r.bits(448, 32))
	s.SpeedClass = speedClass(r.bits(440, 8))
	s.PerformanceMove = int(r.bits(432, 8))
	s.AUSizeBytes = auSizes[r.bits(428, 4)]
	s.EraseSize = int(r.bits(408, 16))
	s.EraseTimeoutS = int(r.bits(402, 6))
	s.EraseOffsetS = int(r.bits(400, 2))
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
	s.VSCAUSizeMB = int(r.bits(368, 10))
	s.SUSAddr = uint32(r.bits(346, 22))
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
	s.PerformanceEnhance = uint8(r.bits(328, 8))
	s.HostMaintenance = r.bits(335, 1) == 1
	s.CardMaintenance = r.bits(334, 1) == 1
	s.CacheSupport = r.bits(333, 1) == 1
	// Command queue support: 0 = none, n = a queue of depth n+1.
	if q := int(r.bits(328, 5)); q > 0 {
		s.CommandQueueDepth = q + 1
	}
	s.DiscardSupport = r.bits(313, 1) == 1
	s.FULESupport = r.bits(312, 1) == 1
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
