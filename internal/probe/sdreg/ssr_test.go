package sdreg

import "testing"

func TestDecodeSSRRealCard(t *testing.T) {
	// The values the crate's test asserts for these bytes, plus the UHS fields of byte 14.
	s, err := DecodeSSR(ssrRustCrateCard + "\n")
	if err != nil {
		t.Fatal(err)
	}
	want := SSR{
		BusWidth:           4,
		ProtectedAreaBytes: 0x03000000,
		SpeedClass:         10, // SPEED_CLASS 4
		AUSizeBytes:        4 << 20,
		EraseSize:          20,
		EraseTimeoutS:      1,
		EraseOffsetS:       1,
		UHSClass:           1,
		UHSAUSizeBytes:     8 << 20,
	}
	if s != want {
		t.Errorf("DecodeSSR:\n got %+v\nwant %+v", s, want)
	}
}

func TestDecodeSSRLayout(t *testing.T) {
	// Constructed to exercise every field (values as in Table 4-44 of the simplified
	// specification; the same byte positions the Rust crate's layout test uses).
	b := make([]byte, 64)
	b[0] = 0xa0             // DAT_BUS_WIDTH 10 (4 bit), SECURED_MODE 1
	b[2], b[3] = 0x12, 0x34 // SD_CARD_TYPE
	b[4], b[5], b[6], b[7] = 0xde, 0xad, 0xbe, 0xef
	b[8] = 0x04               // SPEED_CLASS: class 10
	b[9] = 0x10               // PERFORMANCE_MOVE 16 MB/s
	b[10] = 0x90              // AU_SIZE 9: 4 MB
	b[11], b[12] = 0x12, 0x34 // ERASE_SIZE
	b[13] = 0x32              // ERASE_TIMEOUT 12, ERASE_OFFSET 2
	b[14] = 0x3f              // UHS_SPEED_GRADE 3, UHS_AU_SIZE 15: 64 MB
	b[15] = 0x1e              // VIDEO_SPEED_CLASS 30
	b[16], b[17] = 0x00, 0x08 // VSC_AU_SIZE 8 (bits 377:368)
	b[21] = 0x02              // APP_PERF_CLASS: A2
	b[22] = 0x3f              // PERFORMANCE_ENHANCE: cache, queue depth 32
	b[24] = 0x03              // DISCARD_SUPPORT, FULE_SUPPORT
	s, err := DecodeSSR(hexOf(b))
	if err != nil {
		t.Fatal(err)
	}
	want := SSR{
		BusWidth: 4, SecuredMode: true, CardType: 0x1234, ProtectedAreaBytes: 0xdeadbeef,
		SpeedClass: 10, PerformanceMove: 16, AUSizeBytes: 4 << 20, EraseSize: 0x1234,
		EraseTimeoutS: 12, EraseOffsetS: 2, UHSClass: 3, UHSAUSizeBytes: 64 << 20,
		VideoClass: 30, VSCAUSizeMB: 8, AppClass: "A2", PerformanceEnhance: 0x3f,
		CommandQueueDepth: 32, CacheSupport: true, DiscardSupport: true, FULESupport: true,
	}
	if s != want {
		t.Errorf("DecodeSSR:\n got %+v\nwant %+v", s, want)
	}
}

func TestSSRReservedCodes(t *testing.T) {
	b := make([]byte, 64)
	b[0] = 0x40  // DAT_BUS_WIDTH 01: reserved
	b[8] = 0x05  // SPEED_CLASS 5: reserved
	b[14] = 0x23 // UHS_SPEED_GRADE 2: reserved; UHS_AU_SIZE 3: reserved for UHS
	b[15] = 0x07 // VIDEO_SPEED_CLASS 7: reserved
	b[21] = 0x03 // APP_PERF_CLASS 3: reserved
	s, err := DecodeSSR(hexOf(b))
	if err != nil {
		t.Fatal(err)
	}
	if s.BusWidth != 0 || s.SpeedClass != -1 || s.UHSClass != -1 || s.UHSAUSizeBytes != 0 ||
		s.VideoClass != -1 || s.AppClass != "reserved" {
		t.Errorf("reserved codes decoded as %+v", s)
	}
}

func hexOf(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&0xf])
	}
	return string(out)
}
