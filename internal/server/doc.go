// Package server is the iomark results site: it takes result records uploaded by `iomark run
// --submit` and `iomark submit` (POST /api/v1/results), keeps them in an internal/store
// database beside the published reference results of internal/refdata, and shows them as
// server-rendered HTML pages (home, search, drive, result, board, compare, value) and as a JSON
// API under /api/v1 described by an OpenAPI document (/api/v1/openapi.json). Templates, styles
// and the Chart.js file the charts use are embedded; nothing is fetched from a CDN.
//
// Every page's data comes from one function per page, used by both its HTML and its JSON
// handler, so the two never disagree. Pages work without JavaScript; only charts need it.
//
// One route table (routes.go) says each API operation's parameters, body, answer type and
// statuses; the OpenAPI document is written from it and from schemas of the Go types
// (schema.go), and requests are checked against those same schemas (check.go, params.go, the
// bounds of an upload in limits.go). It owns plausibility (plausible.go: a result's ceiling
// from its class and link chain with probe's linkdb tables, scores recomputed with the
// profile's formula; doubted results are stored but not listed), abuse control (ratelimit.go:
// per address, per /24 or /64 and global; gate.go: requests in flight), bounded memory
// (budget.go, cache.go); the client side of uploading is internal/upload's. It must not measure or probe,
// nor change a record's figures: a record is stored as the record.Run it decodes to, with the
// server's scores, and shown as reported. Every SQL statement lives in internal/store.
package server
