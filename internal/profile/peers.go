package profile

import "time"

// PeerWrites is what the tool a profile mirrors writes to the drive in one run: the bound of
// the profile's byte budget (no profile writes more than the peer it mirrors).
// docs/methodology.md ("Byte budgets") lists them; bench/bytes measures every profile
// against them.
type PeerWrites struct {
	// Tool names the peer run, as people know it.
	Tool string
	// Bytes is what it writes whatever the drive: test files and fixed-size passes.
	Bytes int64
	// PerWriteTest is how long a time-bounded peer writes in each of its write tests, at
	// the drive's own rate, on top of Bytes (CrystalDiskMark); 0 for size-bounded peers.
	PerWriteTest time.Duration
	// How says how Bytes (and PerWriteTest) were counted from the peer's source.
	How string
	// Own: the profile mirrors no tool, and Bytes is iomark's own bound.
	Own bool
}

// The peers' writes, each counted from the peer's source.
var (
	// PiBenchmarks' Storage.sh (github.com/TheRemote/PiBenchmarks, "Run dd tests" to "Run
	// iozone tests"; each step removes its file): dd bs=4k count=130k writes 520 MiB; fio
	// randwrite --size=80M writes 80 MiB into a new file; fio randread --size=80M lays out a
	// new 80 MiB file before reading it; iozone -i 0 -i 1 -i 2 -s 80M -r 4k writes the file,
	// rewrites it and writes it again at random: 240 MiB. 920 MiB in all (0.96 GB).
	peerStorageSh = PeerWrites{Tool: "PiBenchmarks Storage.sh", Bytes: 920 * MiB,
		How: "dd 520 MiB + fio randwrite 80 MiB + fio randread's 80 MiB layout + iozone write, rewrite and random write of 80 MiB"}

	// Jeff Geerling's disk-benchmark.sh (github.com/geerlingguy/pi-cluster, benchmarks/,
	// 2024): iozone -e -I -a -s 1g -r 4k -r 1024k -i 0 -i 1 -i 2 writes, rewrites and
	// randomly writes the 1 GiB file once per record size: 3 × 1 GiB × 2 = 6 GiB.
	peerDiskBenchmarkSh = PeerWrites{Tool: "disk-benchmark.sh (sbc-reviews)", Bytes: 6 * GiB,
		How: "iozone write, rewrite and random write of a 1 GiB file, for 4 KiB and 1 MiB records"}

	// CrystalDiskMark 8 (github.com/hiyohiyo/CrystalDiskMark, DiskBench.cpp at the commit
	// before 9.0.0): it creates and fills a 1 GiB test file ("Preparing... Create Test
	// File"), then runs each test as one discarded "Preparing" pass and 5 measured passes
	// (m_IndexTestCount 4, "default value is 5"), each DiskSpd -d5 (5 s, -W0: no DiskSpd
	// warm-up): 30 s of writing per write test at the drive's rate.
	peerCrystalDiskMark = PeerWrites{Tool: "CrystalDiskMark 8", Bytes: 1 * GiB, PerWriteTest: 30 * time.Second,
		How: "the 1 GiB test file, then 6 passes of 5 s (one discarded) of each write test at the drive's rate"}

	// The sustained profile's peer is the copy it stands for: 8 GiB written sequentially
	// (cp of an 8 GiB file, dd bs=1M count=8192 oflag=direct).
	peerLargeCopy = PeerWrites{Tool: "a 10 GiB file copy", Bytes: 10 * GiB,
		How: "dd bs=1M count=10240 oflag=direct: the copy the profile measures"}

	// quick mirrors no tool: its bound is iomark's own (set with the profile), below
	// every peer above. Tool is printed at the start of every quick run: no issue numbers.
	peerQuickBound = PeerWrites{Tool: "iomark's own bound", Bytes: 512 * MiB, Own: true,
		How: "quick mirrors no tool; iomark bounds it to 512 MiB, below every peer's run"}
)
