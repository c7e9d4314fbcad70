// Package paging walks the paginated MCP list methods (tools/list,
// prompts/list, resources/list, resources/templates/list) page by page,
// bounded, and counts list generations per connection.
//
// The package knows nothing of transports: a walk asks a [Fetcher] for each
// page and reads the items out of the raw result the server sent, so fields a
// client library would drop are kept.
package paging

import (
	"context"
	"encoding/json"
	"time"

	"mcpwitness/finding"
)

// Method names one paginated list method and where its items live.
type Method struct {
	// Name is the JSON-RPC method, e.g. "tools/list".
	Name string
	// ItemsField is the result field holding the items, e.g. "tools".
	ItemsField string
	// KeyField names an item: "name" for tools and prompts, "uri" for
	// resources, "uriTemplate" for resource templates.
	KeyField string
	// Item names one item in prose and findings: "tool", "prompt",
	// "resource", "resource template", "task".
	Item string
}

// Tools returns the tools/list method.
func Tools() Method {
	return Method{Name: "tools/list", ItemsField: "tools", KeyField: "name", Item: "tool"}
}

// Prompts returns the prompts/list method.
func Prompts() Method {
	return Method{Name: "prompts/list", ItemsField: "prompts", KeyField: "name", Item: "prompt"}
}

// Resources returns the resources/list method.
func Resources() Method {
	return Method{Name: "resources/list", ItemsField: "resources", KeyField: "uri", Item: "resource"}
}

// ResourceTemplates returns the resources/templates/list method.
func ResourceTemplates() Method {
	return Method{Name: "resources/templates/list", ItemsField: "resourceTemplates", KeyField: "uriTemplate", Item: "resource template"}
}

// Tasks returns the tasks/list method (protocol 2025-11-25): a task is
// named by its taskId.
func Tasks() Method {
	return Method{Name: "tasks/list", ItemsField: "tasks", KeyField: "taskId", Item: "task"}
}

// MethodByName returns the list method named name ("tools/list", …) or false.
func MethodByName(name string) (Method, bool) {
	for _, m := range []Method{Tools(), Prompts(), Resources(), ResourceTemplates(), Tasks()} {
		if m.Name == name {
			return m, true
		}
	}
	return Method{}, false
}

// Answer is one raw list answer as a [Fetcher] got it off the wire.
type Answer struct {
	// Result is the raw JSON "result" object of the response. It must not
	// change once the fetcher returned it: a page's items, item keys and
	// cursor are read from it without copies.
	Result json.RawMessage
	// RequestID is the raw JSON-RPC id of the request that got this answer.
	RequestID string
	// Frame, when not 0, names the recorded frame the answer came in (the
	// fetcher's own reference; a session uses the sequence number of the
	// frame's event). It becomes [Page.Frame].
	Frame int64
	// Valid says that Result is known to be valid JSON (the fetcher read
	// it out of a frame it had validated), so the walk does not validate
	// it again; false has the walk check it.
	Valid bool
	// Mark is a number of the fetcher's own that the walk passes on unread
	// as [Page.Mark] (a session counts there the notifications that the
	// tool list changed, read before the answer).
	Mark int64
}

// A Fetcher sends one list request for the given cursor ("" for the first
// page) and returns the raw answer. It must honour ctx.
type Fetcher func(ctx context.Context, cursor string) (*Answer, error)

// Incomplete says why a walk stopped before a page without a cursor.
type Incomplete string

// The reasons a walk can be incomplete; the empty value means complete.
const (
	Complete       Incomplete = ""                // the last page named no cursor
	PageLimit      Incomplete = "page-limit"      // the page bound was reached
	CursorRepeated Incomplete = "cursor-repeated" // a page named a cursor already sent
	Aborted        Incomplete = "aborted"         // the walk's context was done
	Failed         Incomplete = "error"           // a fetch failed or a page could not be read
	// Stopped says the client chose to stop ([Options.Stop]): it read what
	// it needed. It is not a finding; the list was not read to its end.
	Stopped Incomplete = "stopped"
)

// Finding reports whether a walk that ended for reason i did not read what
// it meant to read, which a user is told as a problem: every reason but
// [Complete] and [Stopped].
func (i Incomplete) Finding() bool { return i != Complete && i != Stopped }

// Page is one accepted answer of a walk.
type Page struct {
	// Number is the page's 1-based place in the walk.
	Number int `json:"page"`
	// Cursor is the cursor sent to ask for the page; "" for the first.
	Cursor string `json:"cursor,omitempty"`
	// NextCursor is the cursor the page names; "" when it names none.
	NextCursor string `json:"nextCursor,omitempty"`
	// Items are the raw items, exactly as the server sent them.
	Items []json.RawMessage `json:"-"`
	// Keys holds each item's key ([Method.KeyField]), "" for an item without one.
	Keys []string `json:"-"`
	// Count is len(Items).
	Count int `json:"items,omitempty"`
	// TTLMs is the page's ttlMs as the server sent it; HasTTL says whether it did.
	TTLMs  int  `json:"ttlMs,omitempty"`
	HasTTL bool `json:"hasTTL,omitempty"`
	// Elapsed is the time the fetch took; Ms is the same in milliseconds.
	Elapsed time.Duration `json:"-"`
	Ms      float64       `json:"ms,omitempty"`
	// Generation is the generation the page's request started when it
	// settled (see [Counter]).
	Generation int64 `json:"generation,omitempty"`
	// RequestID is the raw JSON-RPC id of the page's request.
	RequestID string `json:"requestId,omitempty"`
	// Frame names the recorded frame the page was read from, as
	// [Answer.Frame] did; 0 when the fetcher named none. A record may then
	// keep the items only in that frame.
	Frame int64 `json:"frame,omitempty"`
	// Mark is [Answer.Mark], not recorded.
	Mark int64 `json:"-"`
}

// Result is the outcome of a [Walk]. What was read is kept even when the walk
// is incomplete.
type Result struct {
	Method     string     `json:"method"`
	Pages      []Page     `json:"pages"`
	Incomplete Incomplete `json:"incomplete"`
	// Err says what stopped a walk that is [Failed] or [Aborted]; nil
	// otherwise.
	Err error `json:"-"`
	// Error is Err's text, kept so that a recorded walk still says why it
	// stopped.
	Error    string            `json:"error,omitempty"`
	Findings []finding.Finding `json:"findings"`
	// Generation is the generation of the last accepted page (0 when none).
	Generation int64 `json:"generation"`
}

// Options tune a [Walk]. A nil *Options means defaults.
type Options struct {
	// MaxPages bounds the number of requests sent; 0 means 100.
	MaxPages int
	// OnPage, if set, is called after each accepted page, in order, from the
	// walking goroutine.
	OnPage func(Page)
	// OnRequest, if set, is called just before each page is asked for, with
	// the page number and cursor.
	OnRequest func(number int, cursor string)
	// Stop, if set, is called after each accepted page, after OnPage, from
	// the walking goroutine. When it reports true and the page names a next
	// cursor, the walk asks for no more pages and ends as [Stopped]; on a
	// last page it changes nothing (the walk is [Complete]).
	Stop func(Page) bool
	// DropItems lets each page's items go once OnPage and Stop have had
	// them: the Result's pages keep their counts, cursors and the rest, not
	// their Items (a walk whose items only OnPage needs holds no second
	// reference to every item until it ends).
	DropItems bool
}
