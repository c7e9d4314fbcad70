// Package report says what a session file holds: [Summarize] folds its
// events into walks and calls, [Summary.Markdown] writes a report for an
// issue tracker, and [Compare] tells what changed between two files.
//
// Everything is read from the file as a stream; what is kept is bounded by
// the number of walks and calls, and the frames of failed calls, never by
// the size of the file.
package report

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"mcpwitness/checks"
	"mcpwitness/paging"
	"mcpwitness/session"
)

// Summary is what a session file holds, folded: its walks and calls, with
// what went wrong.
type Summary struct {
	Name     string
	Header   session.Header
	Server   *session.ServerInfo // from the first connect event; nil when none
	Events   int
	First    time.Time // time of the first event
	Last     time.Time // time of the last event
	Warnings []string  // what the reader forgave, from [session.File.Warnings]

	Walks []*Walk
	Calls []*Call
	// Errors are the error events, at most maxNotes of them; ErrorCount
	// counts them all.
	Errors     []Note
	ErrorCount int
	// Notifications counts the server's notifications by method, sorted.
	Notifications []Count
	// ServerRequests are the server's own requests and how they were answered.
	ServerRequests []Note
	// Stderr holds the server's last stderr lines; StderrCount counts them all.
	Stderr      []string
	StderrCount int
	// Unknown counts events of kinds this version does not know, by kind.
	Unknown []Count
	// Closed says how the connection ended, when the file says.
	Closed string
}

// Walk is one walk of a list, from its start event to its done event.
type Walk struct {
	ID      int64
	Method  string
	Started time.Time
	// Pages are the accepted pages; their Items are kept only for the
	// walk [Options.ToolItems] asks for.
	Pages []paging.Page
	// Done says the walk's done event is in the file; the rest is from it.
	Done       bool
	Items      int
	Incomplete paging.Incomplete
	Generation int64
	Findings   []paging.Finding
	Error      string
	Ms         float64
}

// Complete reports whether the walk finished and read every page.
func (w *Walk) Complete() bool { return w.Done && w.Incomplete == paging.Complete && w.Error == "" }

// Generations returns the generations of the walk's first and last pages
// (0, 0 when it accepted none).
func (w *Walk) Generations() (first, last int64) {
	if len(w.Pages) == 0 {
		return 0, 0
	}
	return w.Pages[0].Generation, w.Pages[len(w.Pages)-1].Generation
}

// Call is one tool call, from its start event to its done event.
type Call struct {
	ID               int64
	Tool             string
	Args             json.RawMessage
	Started          time.Time
	Listed           bool
	Sent             bool
	Forced           bool
	Generation       int64
	Stale            bool
	ListedDuringCall bool
	Verdicts         []checks.Verdict
	// IsError says the result had isError: true; RPCError is a JSON-RPC error
	// answer; Error says why there was no answer.
	IsError   bool
	RPCError  json.RawMessage
	Error     string
	Cancelled bool
	Ms        float64
	Progress  int  // progress notifications received
	Done      bool // the call's done event is in the file

	// Request and Response are the tools/call frames of the call; they are
	// read only for calls that [Call.Failed].
	Request, Response *Frame

	token              string
	reqID              string
	reqEvent, resEvent int
}

// Frame is one wire frame as the file holds it.
type Frame struct {
	Seq int64
	T   time.Time
	ID  string
	Raw json.RawMessage
}

// Note is one event worth saying as text.
type Note struct {
	T      time.Time
	Method string
	Text   string
}

// Count is how many events of one name a file holds.
type Count struct {
	Name  string
	Count int
}

// Failed reports whether the call is one a report shows in full: refused,
// a check failed or could not be made, the server answered with an error or
// isError, no answer came, or the file ends before the call did.
func (c *Call) Failed() bool {
	if !c.Done || !c.Sent || c.IsError || len(c.RPCError) > 0 || c.Error != "" {
		return true
	}
	for _, v := range c.Verdicts {
		switch v.Status {
		case checks.Fail, checks.Refused, checks.Unchecked:
			return true
		}
	}
	return false
}

// Options tune [Summarize]. nil means defaults.
type Options struct {
	// ToolItems keeps the items of the last complete tools/list walk.
	ToolItems bool
}

// The most notes, and stderr lines, a summary keeps.
const (
	maxNotes  = 50
	maxStderr = 20
)

// Summarize reads every event of f, in order, and folds them.
func Summarize(f *session.File, opts *Options) (*Summary, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	m := f.Meta()
	s := &Summary{Name: f.Name(), Header: f.Header(), Server: m.Server, Events: f.Len(), First: m.First, Last: m.Last, Warnings: f.Warnings()}
	fs := &folder{s: s, opts: o, walks: map[int64]*Walk{}, calls: map[int64]*Call{}, byToken: map[string]*Call{},
		byReqID: map[string]*Call{}, notes: map[string]int{}, unknown: map[string]int{}}
	i := 0
	for ev, err := range f.Events() {
		if err != nil {
			return nil, err
		}
		fs.add(i, ev)
		i++
	}
	s.Notifications = counts(fs.notes)
	s.Unknown = counts(fs.unknown)
	for _, c := range s.Calls {
		if !c.Failed() {
			continue
		}
		var err error
		if c.Request, err = frameAt(f, c.reqEvent); err == nil {
			c.Response, err = frameAt(f, c.resEvent)
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

func frameAt(f *session.File, i int) (*Frame, error) {
	if i <= 0 {
		return nil, nil
	}
	ev, err := f.Event(i - 1)
	if err != nil {
		return nil, err
	}
	return &Frame{Seq: ev.Seq, T: ev.T, ID: ev.ID, Raw: ev.Frame}, nil
}

func counts(m map[string]int) []Count {
	out := []Count{}
	for k, n := range m {
		out = append(out, Count{Name: k, Count: n})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// folder is the state of one [Summarize].
type folder struct {
	s       *Summary
	opts    Options
	walks   map[int64]*Walk
	calls   map[int64]*Call
	byToken map[string]*Call // progress token of a call → the call
	byReqID map[string]*Call // JSON-RPC id of a tools/call → the call
	notes   map[string]int
	unknown map[string]int
	// lastTools is the last complete tools walk, whose items are kept.
	lastTools *Walk
}

func (fs *folder) add(i int, ev session.Event) {
	s := fs.s
	switch ev.Kind {
	case session.KindWalk:
		fs.walk(ev)
	case session.KindPage:
		if w := fs.walkOf(ev); w != nil && ev.Page != nil {
			p := *ev.Page
			if fs.opts.ToolItems && w.Method == paging.Tools().Name {
				p.Items = ev.Items
			}
			w.Pages = append(w.Pages, p)
		}
	case session.KindCall:
		fs.call(ev)
	case session.KindVerdict:
		if c := fs.calls[callID(ev)]; c != nil && ev.Verdict != nil {
			c.Verdicts = append(c.Verdicts, *ev.Verdict)
		}
	case session.KindProgress:
		if ev.Progress != nil && fs.calls[ev.Progress.CallID] != nil {
			fs.calls[ev.Progress.CallID].Progress++
		}
	case session.KindWire:
		fs.wire(i, ev)
	case session.KindNotification:
		fs.notes[ev.Method]++
	case session.KindServerCall:
		if len(s.ServerRequests) < maxNotes {
			s.ServerRequests = append(s.ServerRequests, Note{T: ev.T, Method: ev.Method, Text: ev.Text})
		}
	case session.KindError:
		s.ErrorCount++
		if len(s.Errors) < maxNotes {
			s.Errors = append(s.Errors, Note{T: ev.T, Method: ev.Method, Text: ev.Text})
		}
	case session.KindStderr:
		s.StderrCount++
		s.Stderr = append(s.Stderr, ev.Text)
		if len(s.Stderr) > maxStderr {
			s.Stderr = s.Stderr[1:]
		}
	case session.KindClosed:
		s.Closed = ev.Text
	case session.KindConnect, session.KindListRequest:
	default:
		fs.unknown[string(ev.Kind)]++
	}
}

func (fs *folder) walkOf(ev session.Event) *Walk {
	if ev.Walk == nil {
		return nil
	}
	w := fs.walks[ev.Walk.ID]
	if w == nil {
		// A walk whose start event is not in the file (a damaged file).
		w = &Walk{ID: ev.Walk.ID, Method: ev.Walk.Method, Started: ev.T}
		fs.walks[w.ID] = w
		fs.s.Walks = append(fs.s.Walks, w)
	}
	return w
}

func (fs *folder) walk(ev session.Event) {
	w := fs.walkOf(ev)
	if w == nil || ev.Walk.State != "done" {
		return
	}
	info := ev.Walk
	w.Done, w.Items, w.Incomplete, w.Generation = true, info.Items, paging.Incomplete(info.Incomplete), info.Generation
	w.Findings, w.Error, w.Ms = info.Findings, info.Error, info.Ms
	if !fs.opts.ToolItems || w.Method != paging.Tools().Name {
		return
	}
	if !w.Complete() {
		dropItems(w)
		return
	}
	if fs.lastTools != nil {
		dropItems(fs.lastTools)
	}
	fs.lastTools = w
}

func dropItems(w *Walk) {
	for i := range w.Pages {
		w.Pages[i].Items = nil
	}
}

func callID(ev session.Event) int64 {
	if ev.Call == nil {
		return 0
	}
	return ev.Call.ID
}

func (fs *folder) call(ev session.Event) {
	info := ev.Call
	if info == nil {
		return
	}
	c := fs.calls[info.ID]
	if c == nil {
		c = &Call{ID: info.ID, Tool: info.Tool, Started: ev.T, token: fmt.Sprintf("%q", fmt.Sprintf("mcpwitness-%d", info.ID))}
		fs.calls[c.ID] = c
		fs.byToken[c.token] = c
		fs.s.Calls = append(fs.s.Calls, c)
	}
	switch info.State {
	case "start":
		c.Args, c.Listed, c.Generation = info.Args, info.Listed, info.Generation
	case "done":
		c.Done, c.Listed, c.Sent, c.Forced, c.Generation = true, info.Listed, info.Sent, info.Forced, info.Generation
		c.Stale, c.ListedDuringCall, c.RPCError, c.Error = info.Stale, info.ListedDuringCall, info.RPCError, info.Error
		c.Cancelled, c.Ms = info.Cancelled, info.Ms
		var res struct {
			IsError bool `json:"isError"`
		}
		c.IsError = json.Unmarshal(info.Result, &res) == nil && res.IsError
		if info.RequestID != "" && c.reqID == "" {
			c.reqID = info.RequestID
		}
	}
}

// wire matches tools/call frames to calls: a request by the progress token
// the call sent (or, without one, the oldest call of that tool still
// waiting for its request), a response by the request's id.
func (fs *folder) wire(i int, ev session.Event) {
	if ev.Method != "tools/call" || ev.ID == "" {
		return
	}
	if ev.Dir == session.Recv {
		if c := fs.byReqID[ev.ID]; c != nil && c.resEvent == 0 {
			c.resEvent = i + 1
		}
		return
	}
	var req struct {
		Params struct {
			Name string `json:"name"`
			Meta struct {
				Token json.RawMessage `json:"progressToken"`
			} `json:"_meta"`
		} `json:"params"`
	}
	_ = json.Unmarshal(ev.Frame, &req)
	c := fs.byToken[string(req.Params.Meta.Token)]
	if c == nil {
		// Calls in flight are among the last few started.
		calls := fs.s.Calls[max(0, len(fs.s.Calls)-64):]
		for _, cand := range calls {
			if cand.Tool == req.Params.Name && cand.reqEvent == 0 && !cand.Done {
				c = cand
				break
			}
		}
	}
	if c == nil || c.reqEvent != 0 {
		return
	}
	c.reqEvent, c.reqID = i+1, ev.ID
	fs.byReqID[ev.ID] = c
}
