// Package runstore keeps result records in the results database: it maps a record to the
// store's indexed columns (Row), saves it, and finds a saved run again by its id, a unique
// end of it, or "latest". It sits above record and store so that neither knows the other:
// record stays free of database code, and store never learns the record's schema.
//
// It measures, probes and prints nothing; it opens no database of its own choosing (the
// caller passes an open *store.Store).
package runstore
