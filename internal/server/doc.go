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
// It owns validation of uploaded records (ranges of every field; figures above what the link can
// carry are kept and flagged), the body limit and the per-address rate limit; the client side of
// uploading is internal/upload's. It must not measure, probe or change a record's figures: a record is stored
// as the record.Run it decodes to, minus fields the schema does not know (so a stray hostname is
// never kept), and shown as reported. Every SQL statement lives in internal/store.
package server
