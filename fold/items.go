package fold

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"
	"weak"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// RowRequest is the row of a request other than a list or a call that
// ended: Method, and Text saying how it went.
const RowRequest RowKind = "request"

// maxRequests is the most requests kept; older ones are forgotten (their
// rows stay).
const maxRequests = 1000

// Item is one item of a list other than tools: a prompt, a resource or a
// resource template, as a walk listed it. Items never change once made.
type Item struct {
	// Method is the list: prompts/list, resources/list or
	// resources/templates/list.
	Method string
	Walk   int64
	Page   int
	// Gen is the generation of the answer the item came in.
	Gen int64
	// Key is what names the item in its list: a prompt's name, a
	// resource's uri, a template's uriTemplate ("" when it has none).
	Key         string
	Name        string
	Title       string
	Description string
	URI         string
	URITemplate string
	MIMEType    string
	// Size is a resource's size in bytes, when it gave one.
	Size *int64
	// Arguments are a prompt's arguments.
	Arguments []checks.PromptArgument
	// Annotations are a resource's or template's annotations, raw.
	Annotations json.RawMessage
	// Bad says why the item could not be read ("" when it could).
	Bad string
	// Raw is the item as the server listed it.
	Raw json.RawMessage
	// Unsafe says which fields of the item hold hidden or unsafe
	// characters, and what: the messages of [checks.LintText].
	Unsafe []string
}

// ReadItem reads raw, one item of the list method, as far as it can;
// Item.Bad says what could not be read.
func ReadItem(method string, raw json.RawMessage) *Item {
	it := &Item{Method: method, Raw: raw}
	var d struct {
		Name        string          `json:"name"`
		Title       string          `json:"title"`
		Description string          `json:"description"`
		URI         string          `json:"uri"`
		URITemplate string          `json:"uriTemplate"`
		MIMEType    string          `json:"mimeType"`
		Size        *int64          `json:"size"`
		Annotations json.RawMessage `json:"annotations"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		it.Bad = "not a readable item: " + err.Error()
	}
	it.Name, it.Title, it.Description, it.URI, it.URITemplate = d.Name, d.Title, d.Description, d.URI, d.URITemplate
	it.MIMEType, it.Size, it.Annotations = d.MIMEType, d.Size, d.Annotations
	switch method {
	case paging.Prompts().Name:
		it.Key = d.Name
		args, err := checks.PromptArgumentsOf(raw)
		if err != nil && it.Bad == "" {
			it.Bad = err.Error()
		}
		it.Arguments = args
	case paging.Resources().Name:
		it.Key = d.URI
	case paging.ResourceTemplates().Name:
		it.Key = d.URITemplate
	case paging.Tasks().Name:
		readTaskItem(it, raw)
	}
	if kind := textKind(method); kind != "" {
		it.Unsafe = messages(checks.LintText(kind, raw))
	}
	return it
}

// textKind names an item of the list method in the messages of
// [checks.LintText] ("prompt", "resource", …); "" for a list whose items
// are not model-facing text (tasks) or are linted as tools are.
func textKind(method string) string {
	m, ok := paging.MethodByName(method)
	if !ok || m.Name == paging.Tools().Name || m.Name == paging.Tasks().Name {
		return ""
	}
	return m.Item
}

// Request is one request other than a list or a tool call, folded from its
// events: see [record.RequestInfo]. Once done it never changes.
type Request struct {
	ID         int64
	Method     string
	About      string
	Start, End time.Time
	Done       bool
	Params     json.RawMessage
	Sent       bool
	Forced     bool
	RequestID  string
	Result     json.RawMessage
	RPCError   json.RawMessage
	Err        string
	Cancelled  bool
	Ms         float64
	Verdicts   []finding.Verdict
	// Findings say what is worth knowing beyond the verdicts: for a
	// prompt's get, that the prompt list changed before its answer.
	Findings []finding.Finding
}

// others is what the fold keeps of the lists other than tools and of the
// requests about their items. It is never changed in place: each change
// makes a new one (sharing what did not change), so a [State.Clone] may
// share it.
type others struct {
	items    map[int64][]*Item // walk id → its items, in page order
	requests []*Request        // oldest first
	byID     map[int64]*Request
	updated  map[string]time.Time // uri → when the server last said it changed
	// owner is the state that made this one: weak, so that a snapshot
	// sharing it does not keep the state that went on alive.
	owner weak.Pointer[State]
}

// edit returns a copy of o (nil is empty) for owner to change. A clone
// shares o with the state it came from, and a walk's items share their
// array from one copy to the next: only the state that made o appends to
// that array in place; for any other the items are clipped, so that an
// append copies instead of writing where the other does.
func (o *others) edit(owner *State) *others {
	w := weak.Make(owner)
	n := &others{items: map[int64][]*Item{}, byID: map[int64]*Request{}, updated: map[string]time.Time{}, owner: w}
	if o != nil {
		maps.Copy(n.items, o.items)
		if o.owner != w {
			for id, items := range n.items {
				n.items[id] = clip(items)
			}
		}
		maps.Copy(n.byID, o.byID)
		maps.Copy(n.updated, o.updated)
		n.requests = clip(o.requests)
	}
	return n
}

// Items returns the items walk w listed, in page order: nil for a tools
// walk (see [Walk.Tools]) or one no longer kept.
func (s *State) Items(w *Walk) []*Item {
	if w == nil || s.others == nil {
		return nil
	}
	return s.others.items[w.ID]
}

// Latest returns the newest walk of the list method, or nil.
func (s *State) Latest(method string) *Walk {
	for i := len(s.walks) - 1; i >= 0; i-- {
		if s.walks[i].Method == method {
			return s.walks[i]
		}
	}
	return nil
}

// Requests returns the requests kept, oldest first.
func (s *State) Requests() []*Request {
	if s.others == nil {
		return nil
	}
	return s.others.requests
}

// Request returns the request numbered id, or nil when it is not kept.
func (s *State) Request(id int64) *Request {
	if s.others == nil {
		return nil
	}
	return s.others.byID[id]
}

// Updated returns when the server last said the resource uri changed
// (notifications/resources/updated).
func (s *State) Updated(uri string) (time.Time, bool) {
	if s.others == nil {
		return time.Time{}, false
	}
	t, ok := s.others.updated[uri]
	return t, ok
}

// applyItems keeps the items of a page of a list other than tools.
func (s *State) applyItems(ev record.Event) {
	method := ev.Method
	if ev.Walk != nil && method == "" {
		method = ev.Walk.Method
	}
	if ev.Page == nil || ev.Walk == nil || method == paging.Tools().Name || method == "" {
		return
	}
	o := s.others.edit(s)
	for id := range o.items {
		if s.walkByID[id] == nil {
			delete(o.items, id) // the walk was forgotten
		}
	}
	items := o.items[ev.Walk.ID]
	for _, raw := range ev.Items {
		it := ReadItem(method, raw)
		it.Walk, it.Page, it.Gen = ev.Walk.ID, ev.Page.Number, ev.Page.Generation
		items = append(items, it)
	}
	o.items[ev.Walk.ID] = items
	s.others = o
}

// applyRequest folds a request's start, verdict or end.
func (s *State) applyRequest(ev record.Event) {
	info := ev.Request
	if info == nil {
		return
	}
	o := s.others.edit(s)
	r := o.byID[info.ID]
	if r == nil {
		r = &Request{ID: info.ID, Method: info.Method, About: info.About, Start: ev.T, Params: info.Params}
		o.requests = append(o.requests, r)
		if len(o.requests) > maxRequests {
			delete(o.byID, o.requests[0].ID)
			o.requests = slices.Clone(o.requests[1:])
		}
	} else {
		c := *r
		c.Verdicts = clip(r.Verdicts)
		r = &c
		if i := slices.Index(o.requests, o.byID[info.ID]); i >= 0 {
			o.requests = slices.Clone(o.requests)
			o.requests[i] = r
		}
	}
	o.byID[info.ID] = r
	s.others = o
	switch {
	case ev.Kind == record.KindVerdict && ev.Verdict != nil:
		r.Verdicts = append(r.Verdicts, *ev.Verdict)
	case info.State == record.PhaseDone:
		r.Done, r.End = true, ev.T
		r.Sent, r.Forced, r.RequestID, r.Cancelled, r.Ms = info.Sent, info.Forced, info.RequestID, info.Cancelled, info.Ms
		r.Result, r.RPCError, r.Err = info.Result, info.RPCError, info.Error
		r.Findings = info.Findings
		s.row(&Row{T: ev.T, Kind: RowRequest, Level: r.Level(), Method: r.Method, Text: requestText(r)})
	}
}

// applyUpdated notes a notifications/resources/updated.
func (s *State) applyUpdated(ev record.Event) {
	uri, ok := record.UpdatedURI(ev)
	if !ok {
		return
	}
	o := s.others.edit(s)
	o.updated[uri] = ev.T
	s.others = o
}

// Level is how much a finished request matters: an error when it failed
// or a verdict failed or refused it, a warning when a verdict could not
// be checked, else info.
func (r *Request) Level() Level {
	if r.Err != "" || len(r.RPCError) > 0 {
		return LevelError
	}
	level := LevelInfo
	for _, v := range r.Verdicts {
		switch v.Status {
		case finding.Fail, finding.Refused:
			return LevelError
		case finding.Unchecked:
			level = LevelWarn
		}
	}
	return level
}

// requestText says how a request went, for its row. About may come from
// the server (a uri it listed): the reader sanitises rows.
func requestText(r *Request) string {
	what := r.Method
	if r.About != "" {
		what += " " + r.About
	}
	switch {
	case !r.Sent && r.Err != "":
		return what + ": not sent: " + r.Err
	case !r.Sent:
		return what + ": refused"
	case r.Cancelled:
		return what + ": cancelled"
	case r.Err != "":
		return what + ": " + r.Err
	case len(r.RPCError) > 0:
		return what + ": " + record.RPCErrorText(r.RPCError)
	}
	return fmt.Sprintf("%s: answered in %.1f ms", what, r.Ms)
}
