package refdata

// Source is one document the published results were copied from.
type Source struct {
	ID    string // stable short id, the source_id column
	Title string // as printed; empty when the document has none
	Date  string // publication date as printed (YYYY-MM-DD); empty when not stated
	Rows  int    // data rows the CSV holds from it
	About string // what the document is, in a line (details in SOURCES.md)
}

// sources lists every document of SOURCES.md, in its order. Titles, dates and row counts are
// copied from SOURCES.md ("Sources" and the row-count table).
var sources = []Source{
	{
		ID: "geerling-2020-usb", Title: "The fastest USB storage options for Raspberry Pi",
		Date: "2020-08-06", Rows: 6,
		About: "blog post; rows are Rob Logan's table under 'More Information', units not printed",
	},
	{
		ID: "chambers-storage-2019", Rows: 9,
		About: "blog post of the PiBenchmarks Storage.sh author; the 'Contender' results table",
	},
	{
		ID: "geerling-2020-uasp", Title: "UASP makes Raspberry Pi 4 disk IO 50% faster",
		Date: "2020-07-03", Rows: 0,
		About: "blog post; percentages only (UASP against BOT on a Pi 4), no CSV rows",
	},
	{
		ID: "pidramble-microsd", Title: "microSD Card Benchmarks", Rows: 59,
		About: "pidramble.com wiki; one table per Pi model (4 B, 3 B+, 3 B, 3 B overclocked, 2 B)",
	},
	{
		ID: "usbflash-align-2009", Title: "Increase USB Flash Drive Write Speed",
		Date: "2009-10-10", Rows: 2,
		About: "blog post; one USB flash stick before and after partition alignment, on an x86 PC",
	},
}

// Sources returns every source document, including those that contributed no rows.
func Sources() []Source {
	out := make([]Source, len(sources))
	copy(out, sources)
	return out
}

// SourceByID returns the source with that id.
func SourceByID(id string) (Source, bool) {
	for _, s := range sources {
		if s.ID == id {
			return s, true
		}
	}
	return Source{}, false
}

// storageClasses are the storage_class values SOURCES.md defines ("Columns and units").
var storageClasses = []string{"microsd", "usb-flash", "usb-ssd-sata", "usb-ssd-nvme", "usb-emmc", "msata-usb"}

// StorageClasses returns the storage_class values a row may carry.
func StorageClasses() []string {
	out := make([]string, len(storageClasses))
	copy(out, storageClasses)
	return out
}

func knownStorageClass(c string) bool {
	for _, k := range storageClasses {
		if k == c {
			return true
		}
	}
	return false
}
