package paging

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
	"unsafe"

	"mcpwitness/finding"
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
	b := item
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return "", false
	}
	i++
	var val []byte
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] == '}' {
			break
		}
		if b[i] == ',' {
			i++
			continue
		}
		kend := skipString(b, i)
		if kend < 0 {
			return itemKeySlow(item, field)
		}
		rawKey := b[i:kend]
		i = skipSpace(b, kend)
		if i >= len(b) || b[i] != ':' {
			return itemKeySlow(item, field)
		}
		i = skipSpace(b, i+1)
		vend := skipValue(b, i)
		if vend < 0 {
			return itemKeySlow(item, field)
		}
		match, ok := keyIs(rawKey, field)
		if !ok {
			return "", false
		}
		if match {
			val = b[i:vend] // the last of duplicate members wins, as in a map
		}
		i = vend
	}
	return stringValue(val)
}

// keyIs reports whether rawKey, a member name as written (quoted, maybe
// escaped), is field; ok is false when the name does not decode.
func keyIs(rawKey []byte, field string) (match, ok bool) {
	if bytes.IndexByte(rawKey, '\\') < 0 && utf8.Valid(rawKey) {
		return string(rawKey[1:len(rawKey)-1]) == field, true
	}
	var k string
	if json.Unmarshal(rawKey, &k) != nil {
		return false, false
	}
	return k == field, true
}

// stringValue returns the string val holds when val, a JSON value as
// written, is a string. One written without escapes shares val's bytes
// (see [Answer.Result]): 100,000 keys cost no copy.
func stringValue(val []byte) (string, bool) {
	if len(val) == 0 || val[0] != '"' {
		return "", false
	}
	inner := val[1 : len(val)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		if len(inner) == 0 {
			return "", true
		}
		return unsafe.String(&inner[0], len(inner)), true
	}
	var s string
	if json.Unmarshal(val, &s) != nil {
		return "", false
	}
	return s, true
}

func itemKeySlow(item json.RawMessage, field string) (string, bool) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(item, &obj) != nil {
		return "", false
	}
	raw, ok := obj[field]
	if !ok || jsonKind(raw) != kindString {
		return "", false
	}
	var key string
	if json.Unmarshal(raw, &key) != nil {
		return "", false
	}
	return key, true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index just past the string starting at b[i], or -1.
func skipString(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return -1
}

// skipValue returns the index just past the value starting at b[i], or -1.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				if i < 0 {
					return -1
				}
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return -1
	default:
		for ; i < len(b); i++ {
			switch b[i] {
			case ',', '}', ']', ' ', '\t', '\r', '\n':
				return i
			}
		}
		return i
	}
}

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
