package paging

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"mcpwitness/finding"
	"mcpwitness/jsonscan"
)

// The checks a walk's [finding.Finding] can name.
const (
	// CheckCursorRepeated (error): a page named a cursor the walk had already
	// sent; following it would loop.
	CheckCursorRepeated = "cursor-repeated"
	// CheckPageLimit (error): the walk sent as many requests as it may and
	// the last page still named a cursor.
	CheckPageLimit = "page-limit"
	// CheckEmptyPageWithCursor (warning): a page with no items still named a
	// cursor.
	CheckEmptyPageWithCursor = "empty-page-with-cursor"
	// CheckDuplicateItem (warning): two items share a key, on one page or on
	// two.
	CheckDuplicateItem = "duplicate-item"
	// CheckMissingItems (warning): a page had no items field, or null there.
	CheckMissingItems = "missing-items"
	// CheckItemWithoutKey (warning): items that are not objects or lack a
	// string key ([Method.KeyField]).
	CheckItemWithoutKey = "item-without-key"
	// CheckInvalidTTL (warning): a page's ttlMs was not a non-negative number.
	CheckInvalidTTL = "invalid-ttl"
)

// itemRef says where an item was seen: page number and 1-based position.
type itemRef struct {
	page, index int
}

// maxListed bounds how many item positions one finding lists.
const maxListed = 5

func (w *walker) find(check string, severity finding.Severity, page int, msg string) {
	w.res.Findings = append(w.res.Findings, finding.Finding{Check: check, Severity: severity, Message: msg, Page: page})
}

// inspect adds the findings about an accepted page and the pages before it.
func (w *walker) inspect(p *Page) {
	if p.Count == 0 && p.NextCursor != "" {
		w.find(CheckEmptyPageWithCursor, finding.SeverityWarning, p.Number,
			fmt.Sprintf("page %d has no items but names nextCursor %s", p.Number, quote(p.NextCursor)))
	}
	field := w.m.KeyField
	if field == "" {
		return
	}
	var keyless []int
	p.Keys = make([]string, len(p.Items))
	for i, item := range p.Items {
		here := itemRef{page: p.Number, index: i + 1}
		key, ok := itemKey(item, field)
		if !ok {
			keyless = append(keyless, here.index)
			continue
		}
		p.Keys[i] = key
		first, seen := w.keys[key]
		if !seen {
			w.keys[key] = here
			continue
		}
		if w.dupes[key] {
			continue
		}
		w.dupes[key] = true
		var msg string
		if first.page == here.page {
			msg = fmt.Sprintf("%s %s appears twice on page %d (items %d and %d)",
				field, quote(key), here.page, first.index, here.index)
		} else {
			msg = fmt.Sprintf("%s %s appears on page %d (item %d) and again on page %d (item %d)",
				field, quote(key), first.page, first.index, here.page, here.index)
		}
		w.find(CheckDuplicateItem, finding.SeverityWarning, here.page, msg)
	}
	if len(keyless) > 0 {
		w.find(CheckItemWithoutKey, finding.SeverityWarning, p.Number,
			fmt.Sprintf("page %d: %s without a string %q (%s)", p.Number, plural(len(keyless), "item"), field, positions(keyless)))
	}
}

// cursorRepeated adds the finding for a cursor named by page namer that the
// walk already sent to ask for page sentFor.
func (w *walker) cursorRepeated(cursor string, sentFor, namer int) {
	var msg string
	if sentFor == namer {
		msg = fmt.Sprintf("page %d names nextCursor %s, the cursor it was itself asked with; the walk stopped there to avoid a loop",
			namer, quote(cursor))
	} else {
		msg = fmt.Sprintf("page %d names nextCursor %s, already sent to ask for page %d (named by page %d); the walk stopped there to avoid a loop",
			namer, quote(cursor), sentFor, sentFor-1)
	}
	w.find(CheckCursorRepeated, finding.SeverityError, namer, msg)
}

// pageLimit adds the finding for a walk stopped by its page bound.
func (w *walker) pageLimit(bound int, cursor string) {
	w.find(CheckPageLimit, finding.SeverityError, bound,
		fmt.Sprintf("stopped after %s (the --max-pages bound); page %d still names nextCursor %s, so the list may hold more items; raise --max-pages to read more",
			plural(bound, "page"), bound, quote(cursor)))
}

// itemKey returns item[field] when item is an object and that is a string.
// item must be valid JSON (items come from a result already read). It reads
// the object's top level in one pass, without decoding its members.
func itemKey(item json.RawMessage, field string) (string, bool) {
	val, ok := jsonscan.Member(item, field)
	if !ok {
		return "", false
	}
	// A key written without escapes shares the item's bytes (see
	// [Answer.Result]): 100,000 keys cost no copy.
	return jsonscan.String(val)
}

// stringValue returns the string val, a JSON value as written, holds when
// it is a string (see [jsonscan.String]): one written without escapes
// shares val's bytes.
func stringValue(val []byte) (string, bool) { return jsonscan.String(val) }

// maxShown is the number of runes of a cursor or key shown in a message.
const maxShown = 40

// truncate shortens s to maxShown runes, marking the cut with "…".
func truncate(s string) string {
	if utf8.RuneCountInString(s) <= maxShown {
		return s
	}
	i, n := 0, 0
	for i = range s {
		if n == maxShown {
			break
		}
		n++
	}
	return s[:i] + "…"
}

// quote quotes s for a message, shortened when long.
func quote(s string) string {
	if t := truncate(s); t != s {
		return fmt.Sprintf("%q (%d bytes)", t, len(s))
	}
	return fmt.Sprintf("%q", s)
}

// plural returns "1 item", "2 items".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// positions lists 1-based item positions, at most maxListed of them.
func positions(idx []int) string {
	var b strings.Builder
	b.WriteString("item")
	if len(idx) > 1 {
		b.WriteString("s")
	}
	for i, n := range idx {
		if i == maxListed {
			fmt.Fprintf(&b, ", … %d more", len(idx)-maxListed)
			break
		}
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %d", n)
	}
	return b.String()
}
