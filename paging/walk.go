package paging

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"time"

	"mcpwitness/finding"
	"mcpwitness/jsonscan"
)

// DefaultMaxPages is the page bound of a walk whose [Options.MaxPages] is 0.
const DefaultMaxPages = 100

// Walk reads the list m page by page: it asks fetch for the first page, then
// follows each page's nextCursor until a page has none. It never reads
// without end. It stops early, and says why in [Result.Incomplete], when
//
//   - it has sent [Options.MaxPages] requests and the last page still names a
//     cursor ([PageLimit]);
//   - a page names a cursor the walk already sent ([CursorRepeated]); the page
//     that named it is kept;
//   - ctx is done ([Aborted]). This is checked before each page is asked for
//     and when each answer arrives: an answer that arrives after it is not
//     accepted, and nothing more is sent;
//   - fetch fails or a page cannot be read ([Failed]);
//   - [Options.Stop] reports true for a page that names a cursor
//     ([Stopped]): the client chose to read no further.
//
// Pages accepted before the stop are kept. Each request is counted by c from
// just before fetch is called until it returns, and the generation its
// settle starts is the page's [Page.Generation]. A nil c counts into a
// Counter of the walk's own.
//
// Walk calls fetch from the calling goroutine, one page at a time, and
// returns only after the last call has returned; a fetch that does not honour
// ctx delays the return of an aborted walk.
func Walk(ctx context.Context, m Method, c *Counter, fetch Fetcher, opts *Options) *Result {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if c == nil {
		c = NewCounter()
	}
	w := &walker{
		m:      m,
		res:    &Result{Method: m.Name, Pages: []Page{}, Findings: []finding.Finding{}},
		sentBy: make(map[string]int),
		keys:   make(map[string]itemRef),
		dupes:  make(map[string]bool),
	}
	w.run(ctx, c, fetch, &o)
	if w.res.Err != nil {
		w.res.Error = w.res.Err.Error()
	}
	return w.res
}

// walker is the state of one [Walk].
type walker struct {
	m      Method
	res    *Result
	sentBy map[string]int     // cursor sent → number of the page it asked for
	keys   map[string]itemRef // item key → where it was first seen
	dupes  map[string]bool    // item keys already reported as duplicates
}

// run asks for pages, one cursor after another, until the list ends or
// the walk stops.
func (w *walker) run(ctx context.Context, c *Counter, fetch Fetcher, o *Options) {
	cursor := ""
	for n := 1; ; n++ {
		if !w.mayAsk(ctx, n, cursor, o.MaxPages) {
			return
		}
		p, ok := w.ask(ctx, c, fetch, n, cursor, o.OnRequest)
		if !ok {
			return
		}
		w.accept(&p, o.OnPage)
		stop := o.Stop != nil && o.Stop(p)
		if o.DropItems {
			w.res.Pages[len(w.res.Pages)-1].Items = nil
		}
		if p.NextCursor == "" {
			return
		}
		if stop {
			w.stop(Stopped, nil)
			return
		}
		cursor = p.NextCursor
	}
}

// mayAsk reports whether page n may be asked for with cursor; if not, it
// stops the walk saying why: the cursor was sent before, the page bound is
// reached, or ctx is done.
func (w *walker) mayAsk(ctx context.Context, n int, cursor string, maxPages int) bool {
	if cursor != "" {
		if first, ok := w.sentBy[cursor]; ok {
			w.stop(CursorRepeated, nil)
			w.cursorRepeated(cursor, first, n-1)
			return false
		}
	}
	if n > maxPages {
		w.stop(PageLimit, nil)
		w.pageLimit(maxPages, cursor)
		return false
	}
	if ctx.Err() != nil {
		w.stop(Aborted, fmt.Errorf("%s: aborted before page %d was asked for: %w", w.m.Name, n, context.Cause(ctx)))
		return false
	}
	return true
}

// ask sends the request for page n with cursor and reads its answer. It
// reports false, having stopped the walk, when the walk was aborted while
// the page was out, the fetch failed, or the answer is not a page.
func (w *walker) ask(ctx context.Context, c *Counter, fetch Fetcher, n int, cursor string, onRequest func(int, string)) (Page, bool) {
	res, name := w.res, w.m.Name
	if cursor != "" {
		w.sentBy[cursor] = n
	}
	if onRequest != nil {
		onRequest(n, cursor)
	}
	ans, gen, elapsed, err := fetchOne(ctx, c, fetch, cursor)

	if ctx.Err() != nil {
		w.stop(Aborted, fmt.Errorf("%s: aborted while page %d was out; its answer was not accepted: %w", name, n, context.Cause(ctx)))
		return Page{}, false
	}
	if err != nil {
		w.stop(Failed, fmt.Errorf("%s page %d: %w", name, n, err))
		return Page{}, false
	}
	if ans == nil {
		w.stop(Failed, fmt.Errorf("%s page %d: no answer and no error from the fetcher", name, n))
		return Page{}, false
	}
	before := len(res.Findings)
	p, err := w.readPage(n, ans.Result, ans.Valid)
	if err != nil {
		res.Findings = res.Findings[:before] // the page is not accepted
		w.stop(Failed, fmt.Errorf("%s page %d: %w", name, n, err))
		return Page{}, false
	}
	p.Number = n
	p.Cursor = cursor
	p.RequestID = ans.RequestID
	p.Frame = ans.Frame
	p.Mark = ans.Mark
	p.Elapsed = elapsed
	p.Ms = float64(elapsed) / float64(time.Millisecond)
	p.Generation = gen
	return p, true
}

// accept adds page p to the result, inspects its items and tells onPage.
func (w *walker) accept(p *Page, onPage func(Page)) {
	w.res.Pages = append(w.res.Pages, *p)
	w.res.Generation = p.Generation
	w.inspect(p)
	if onPage != nil {
		onPage(*p)
	}
}

// fetchOne sends one request through fetch, counted by c, and times it.
func fetchOne(ctx context.Context, c *Counter, fetch Fetcher, cursor string) (ans *Answer, gen int64, elapsed time.Duration, err error) {
	req := c.Begin()
	defer req.Settle() // also if fetch panics; a no-op after the Settle below
	start := time.Now()
	ans, err = fetch(ctx, cursor)
	elapsed = time.Since(start)
	return ans, req.Settle(), elapsed, err
}

func (w *walker) stop(why Incomplete, err error) {
	w.res.Incomplete = why
	w.res.Err = err
}

// ReadPage reads the items, nextCursor and ttlMs out of one raw result of
// list method m as a walk reads an answer, without the walk's findings;
// Count is len(Items), and Number, Keys and the fields only a walk knows
// are left zero. A record that keeps a page only in its frame reads the
// page back with it.
func ReadPage(m Method, result json.RawMessage) (Page, error) {
	w := &walker{m: m, res: &Result{}}
	return w.readPage(0, result, false)
}

// readPage reads the items, nextCursor and ttlMs out of one raw result,
// known to be valid JSON when valid. Findings about the page alone
// (missing items, a bad ttlMs) are added here.
func (w *walker) readPage(number int, raw json.RawMessage, valid bool) (Page, error) {
	var p Page
	obj, err := w.resultFields(raw, valid)
	if err != nil {
		return p, err
	}
	p.Items, err = w.readItems(number, obj)
	if err != nil {
		return p, err
	}
	p.Count = len(p.Items)
	p.NextCursor, err = readNextCursor(obj)
	if err != nil {
		return p, err
	}
	p.TTLMs, p.HasTTL = w.readTTL(number, obj)
	return p, nil
}

// resultFields returns the members of raw that a page is read from, or
// an error saying why raw is not one JSON object. raw is validated unless
// it is known to be valid.
func (w *walker) resultFields(raw json.RawMessage, valid bool) (map[string]json.RawMessage, error) {
	switch k := jsonKind(raw); {
	case k == kindEmpty:
		return nil, fmt.Errorf("result is empty")
	case k != kindObject && !valid && !jsonscan.Valid(raw):
		return nil, fmt.Errorf("result is not valid JSON")
	case k != kindObject:
		return nil, fmt.Errorf("result is %s, not a JSON object", k)
	}
	if !valid && !jsonscan.Valid(raw) {
		return nil, fmt.Errorf("result is not valid JSON")
	}
	obj, ok := pageFields(raw, w.m.ItemsField)
	if !ok {
		if err := json.Unmarshal(raw, &obj); err != nil {
			return nil, fmt.Errorf("result cannot be read: %w", err)
		}
	}
	return obj, nil
}

// readItems reads the items out of obj, the members of page number's
// result. A missing or null items field is a finding and no items.
func (w *walker) readItems(number int, obj map[string]json.RawMessage) ([]json.RawMessage, error) {
	field := w.m.ItemsField
	raw, ok := obj[field]
	switch {
	case !ok:
		w.find(CheckMissingItems, finding.SeverityWarning, number, fmt.Sprintf("page %d has no %q field; read as no items", number, field))
		return nil, nil
	case jsonKind(raw) == kindNull:
		w.find(CheckMissingItems, finding.SeverityWarning, number, fmt.Sprintf("page %d has %q: null instead of an array; read as no items", number, field))
		return nil, nil
	case jsonKind(raw) != kindArray:
		return nil, fmt.Errorf("%q is %s, not an array", field, jsonKind(raw))
	}
	items, ok := elements(raw)
	if !ok {
		if err := json.Unmarshal(raw, &items); err != nil {
			return items, fmt.Errorf("%q cannot be read: %w", field, err)
		}
	}
	return items, nil
}

// readNextCursor reads nextCursor out of obj, the members of a result;
// a missing or null one is "".
func readNextCursor(obj map[string]json.RawMessage) (string, error) {
	next, ok := obj["nextCursor"]
	if !ok || jsonKind(next) == kindNull {
		return "", nil
	}
	if jsonKind(next) != kindString {
		return "", fmt.Errorf("nextCursor is %s, not a string", jsonKind(next))
	}
	cursor, ok := stringValue(bytes.TrimSpace(next))
	if !ok {
		return cursor, fmt.Errorf("nextCursor cannot be read")
	}
	return cursor, nil
}

// readTTL reads ttlMs out of obj, the members of page number's result,
// capped at 2^53; ok is false when it is missing, or when it is not a
// non-negative number, which is a finding.
func (w *walker) readTTL(number int, obj map[string]json.RawMessage) (ttlMs int, ok bool) {
	ttl, ok := obj["ttlMs"]
	if !ok {
		return 0, false
	}
	var ms float64
	if jsonKind(ttl) != kindNumber || json.Unmarshal(ttl, &ms) != nil || ms < 0 {
		w.find(CheckInvalidTTL, finding.SeverityWarning, number, fmt.Sprintf("page %d has ttlMs %s, not a non-negative number; ignored", number, truncate(string(ttl))))
		return 0, false
	}
	return int(min(ms, 1<<53)), true
}

// kind is the kind of one JSON value.
type kind int

const (
	kindEmpty kind = iota
	kindObject
	kindArray
	kindString
	kindNumber
	kindBool
	kindNull
)

func (k kind) String() string {
	switch k {
	case kindEmpty:
		return "empty"
	case kindObject:
		return "an object"
	case kindArray:
		return "an array"
	case kindString:
		return "a string"
	case kindNumber:
		return "a number"
	case kindBool:
		return "a boolean"
	default:
		return "null"
	}
}

// jsonKind reports the kind of JSON value raw holds, judged by its first
// byte: raw must be valid JSON or empty.
func jsonKind(raw json.RawMessage) kind {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 {
		return kindEmpty
	}
	switch b[0] {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBool
	case 'n':
		return kindNull
	default:
		return kindNumber
	}
}

// Items returns the items of every accepted page, in order.
func (r *Result) Items() []json.RawMessage {
	var all []json.RawMessage
	for _, p := range r.Pages {
		all = append(all, p.Items...)
	}
	return all
}

// Count returns the number of items over all accepted pages.
func (r *Result) Count() int {
	n := 0
	for _, p := range r.Pages {
		n += p.Count
	}
	return n
}

// String returns the reason, or "complete" for [Complete].
func (i Incomplete) String() string {
	if i == Complete {
		return "complete"
	}
	return string(i)
}
