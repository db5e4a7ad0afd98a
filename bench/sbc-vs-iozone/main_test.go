package main

import "testing"

// iozone 3.489's table as `iozone -e -I -a -s 1g -r 4k -r 1024k -i 0 -i 1 -i 2` prints it
// (layout copied from a run here; the figures are placeholders).
const iozoneOut = `
                                                              random    random     bkwd    record    stride                                    
              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite      read   fwrite frewrite    fread  freread
         1048576       4     7000     8000    15000    15500    15800     8100                                                                
         1048576    1024    55000    58000    76000    77000    77500    57000                                                                

iozone test complete.
`

func TestParseIozone(t *testing.T) {
	got, err := parseIozone(iozoneOut)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]float64{"4 random read": 15800.0 / 1024, "1024 rewrite": 58000.0 / 1024, "1024 reread": 77000.0 / 1024, "1024 write": 55000.0 / 1024} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	if _, err := parseIozone("iozone test complete.\n"); err == nil {
		t.Error("an output without the table parsed")
	}
}

func TestParseBlock(t *testing.T) {
	block := "#### SanDisk SC32G 32GB\n\n| Benchmark                  | Result |\n| -------------------------- | ------ |\n" +
		"| iozone 4K random read      | 9.61 MB/s |\n| iozone 4K random write     | 2.74 MB/s |\n| iozone 1M random read      | 39.96 MB/s |\n" +
		"| iozone 1M random write     | 16.40 MB/s |\n| iozone 1M sequential read  | 41.10 MB/s |\n| iozone 1M sequential write | 18.88 MB/s |\n"
	got, err := parseBlock(block)
	if err != nil {
		t.Fatal(err)
	}
	if got["iozone 1M sequential write"] != 18.88 || got["iozone 4K random read"] != 9.61 {
		t.Errorf("parsed %v", got)
	}
}
