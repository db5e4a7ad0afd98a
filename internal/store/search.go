package store

import (
	"context"
	"strings"
	"unicode"
)

// Text search matches brand and model by word prefix, the same way on both databases. iomark
// itself cuts vendor and model into lower-case words of letters and digits (runs.search_text),
// so neither SQLite's tokenizer nor PostgreSQL's locale decides what a word is; the query is cut
// the same way, and a run matches when every query word starts a word of its vendor or model:
// "sams evo 32" finds "Samsung" "Evo Plus 32GB", "evo+" finds "EVO Plus". Accents are kept
// ("cafe" does not find "Café"). Punctuation never reaches the search syntax, so user text
// cannot inject FTS5 or tsquery operators.

// Bounds on a search, so a hostile query cannot make the database work hard.
const (
	maxSearchTerms    = 8
	maxSearchTermRune = 64
)

// words cuts text into lower-case runs of letters and digits.
func words(text string) []string {
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r)
	})
}

// searchText is what runs.search_text holds for a run.
func searchText(vendor, model string) string {
	return strings.Join(words(vendor+" "+model), " ")
}

// searchTerms are the words of a query, bounded in number and length.
func searchTerms(text string) []string {
	var out []string
	for _, w := range words(text) {
		if len(out) == maxSearchTerms {
			break
		}
		if r := []rune(w); len(r) > maxSearchTermRune {
			w = string(r[:maxSearchTermRune])
		}
		out = append(out, w)
	}
	return out
}

// searchQuery builds the back end's query text from terms that hold only letters and digits.
func (s *Store) searchQuery(terms []string) string {
	parts := make([]string, len(terms))
	for i, t := range terms {
		if s.dialect == postgresDialect {
			parts[i] = t + ":*"
		} else {
			parts[i] = `"` + t + `"*`
		}
	}
	if s.dialect == postgresDialect {
		return strings.Join(parts, " & ")
	}
	return strings.Join(parts, " AND ")
}

// searchCondition returns the WHERE clause matching query, with %s where its one argument goes,
// and that argument; a nil argument means no name matches. The clause holds for rows of runs
// and of run_counts: both name their search name by name_id.
//
// The matching names are a subquery on SQLite. PostgreSQL reads them first and is given an
// array of ids: its planner estimates a text match on search_names at a
// couple of names whatever the word, and with the ids it weighs each against the column's
// statistics instead; and it tests a row against a constant array with a hash, where against
// the subquery it joined, comparing each row passed with every name. That costs a round trip,
// and for a word in thousands of names more planning than it saves, so beyond maxNameIDs the
// subquery stays.
func (s *Store) searchCondition(ctx context.Context, query string) (string, any, error) {
	if s.dialect == sqliteDialect {
		return "name_id IN (SELECT rowid FROM search_names_fts WHERE search_names_fts MATCH %s)", query, nil
	}
	ids, err := queryAll(ctx, s, s.db, "searching names in", `SELECT id FROM search_names WHERE search @@ to_tsquery('simple', $1) LIMIT $2`,
		[]any{query, maxNameIDs + 1}, scanValue[int64])
	if err != nil {
		return "", nil, err
	}
	switch {
	case len(ids) == 0:
		return "", nil, nil
	case len(ids) > maxNameIDs:
		return postgresNameSubquery, query, nil
	}
	return "name_id = ANY(%s)", ids, nil
}

// postgresNameSubquery is PostgreSQL's search condition for a word in more than maxNameIDs names.
const postgresNameSubquery = "name_id IN (SELECT id FROM search_names WHERE search @@ to_tsquery('simple', %s))"

// usesNameSubquery reports whether a WHERE clause holds postgresNameSubquery.
func usesNameSubquery(where string) bool {
	return strings.Contains(where, strings.TrimSuffix(postgresNameSubquery, "%s))"))
}

// maxNameIDs bounds the ids searchCondition sends: planning weighs each (5 ms for 5,000), and a
// word in that many names matches so many runs that any plan finds the page at once.
const maxNameIDs = 2000
