// Package report says what a session file holds: [Summarize] folds its
// events (with the one fold, [fold.State], that the UI uses too) into walks
// and calls, [Summary.Markdown] writes a report for an issue tracker, and
// [Compare] tells what changed between two files.
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

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// Summary is what a session file holds, folded: its walks and calls, with
// what went wrong.
type Summary struct {
	Name     string
	Header   record.Header
	Server   *record.ServerInfo // from the first connect event; nil when none
	Events   int
	First    time.Time // time of the first event
	Last     time.Time // time of the last event
	Warnings []string  // what the reader forgave, from [record.File.Warnings]

	// Walks are every walk of the file, as the fold has them; the tool
	// definitions of the last complete tools/list walk are kept.
	Walks []*fold.Walk
	Calls []*Call
	// Requests are the other requests the client sent (reads, prompt gets,
	// completions, subscriptions, pings, log levels) with their verdicts,
	// oldest first, as many as the fold keeps.
	Requests []*fold.Request
	// Errors are the error events, at most maxNotes of them; ErrorCount
	// counts them all.
	Errors     []Note
	ErrorCount int
	// Notifications counts the server's notifications by method, sorted.
	Notifications []Count
	// ServerRequests are the server's own requests and how they were answered.
	ServerRequests []Note
	// asksFrom is where the current connection's requests start in
	// ServerRequests: a new connection may number its asks from 1 again.
	asksFrom int
	// Stderr holds the server's last stderr lines; StderrCount counts them all.
	Stderr      []string
	StderrCount int
	// Unknown counts events of kinds this version does not know, by kind.
	Unknown []Count
	// Closed says how the connection ended, when the file says.
	Closed string
	// Findings are check's findings, one [record.KindFinding] event each,
	// in the order check made them; nil for a session of another command.
	Findings []finding.Finding
}

// Call is one tool call: the fold's record of it, and where its tools/call
// frames are in the file.
type Call struct {
	*fold.Call

	// Request and Response are the tools/call frames of the call; they are
	// read only for calls that [Call.Failed].
	Request, Response *Frame

	// reqEvent and resEvent are the 1-based numbers in the file of the
	// events holding the frames, 0 when none was seen.
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
	// Ask is the server request a note of one is about ("" otherwise).
	Ask string
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
	if !c.Done || !c.Sent || c.IsError || len(c.RPCError) > 0 || c.Err != "" {
		return true
	}
	for _, v := range c.Verdicts {
		switch v.Status {
		case finding.Fail, finding.Refused, finding.Unchecked:
			return true
		}
	}
	return false
}

// Options tune [Summarize]. nil means defaults; there are none to tune yet.
type Options struct{}

// The most notes, and stderr lines, a summary keeps.
const (
	maxNotes  = 50
	maxStderr = 20
)

// Summarize reads every event of f, in order, folds them, and reads what
// the fold says happened.
func Summarize(f *record.File, _ *Options) (*Summary, error) {
	s, err := summarize(f)
	if err != nil {
		return nil, err
	}
	if err := s.readFailed(f); err != nil {
		return nil, err
	}
	return s, nil
}

// summarize is [Summarize] without reading back the frames and arguments
// of failed calls, which only the Markdown report shows.
func summarize(f *record.File) (*Summary, error) {
	m := f.Meta()
	s := &Summary{Name: f.Name(), Header: f.Header(), Server: m.Server, Events: f.Len(), First: m.First, Last: m.Last, Warnings: f.Warnings()}
	st := fold.New(&fold.Options{Lean: true, KeepAll: true})
	ix := &frameIndex{st: st, req: map[int64]int{}, res: map[int64]int{}, byReqID: map[string]int64{}}
	notes, unknown := map[string]int{}, map[string]int{}
	var rowsRead int64
	i := 0
	for ev, err := range f.Events() {
		if err != nil {
			return nil, err
		}
		st.ApplyAt(ev, i+1)
		ix.add(i, ev)
		if ev.Kind == record.KindFinding && ev.Finding != nil {
			s.Findings = append(s.Findings, *ev.Finding)
		}
		i++
		rows := st.Rows()
		for n := max(rowsRead, rows.First()); n < rows.Total(); n++ {
			s.note(rows.Abs(n), notes, unknown)
		}
		rowsRead = rows.Total()
	}
	s.Walks = st.Walks()
	s.Requests = st.Requests()
	s.Closed = st.ClosedWhy()
	s.Notifications = counts(notes)
	s.Unknown = counts(unknown)
	for _, fc := range st.Calls() {
		s.Calls = append(s.Calls, &Call{Call: fc, reqEvent: ix.req[fc.ID], resEvent: ix.res[fc.ID]})
	}
	return s, nil
}

// readFailed reads back from f what the report shows of each failed call:
// its tools/call frames, and what the lean fold left in the file.
func (s *Summary) readFailed(f *record.File) error {
	for _, c := range s.Calls {
		if !c.Failed() {
			continue
		}
		var err error
		if c.Request, err = frameAt(f, c.reqEvent); err == nil {
			c.Response, err = frameAt(f, c.resEvent)
		}
		if err == nil {
			c.Call, err = fold.ReadBack(c.Call, f.Event)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// note reads one row of the fold: errors, notifications, the server's
// requests, stderr and events of unknown kinds.
func (s *Summary) note(r *fold.Row, notes, unknown map[string]int) {
	switch r.Kind {
	case fold.RowLog, fold.RowToolsChanged, fold.RowChanged, fold.RowNotify:
		notes[r.Method]++
	case fold.RowConnect:
		s.asksFrom = len(s.ServerRequests)
	case fold.RowServerCall:
		s.noteServerRequest(r)
	case fold.RowError:
		s.ErrorCount++
		if len(s.Errors) < maxNotes {
			s.Errors = append(s.Errors, Note{T: r.T, Method: r.Method, Text: r.Text})
		}
	case fold.RowStderr:
		s.StderrCount++
		s.Stderr = append(s.Stderr, r.Text)
		if len(s.Stderr) > maxStderr {
			s.Stderr = s.Stderr[1:]
		}
	case fold.RowOther:
		switch record.Kind(r.Method) {
		case record.KindFinding:
		case record.KindInterrupted:
			// The command was stopped by a signal: said with the errors.
			s.ErrorCount++
			s.Errors = append(s.Errors, Note{T: r.T, Method: r.Method, Text: r.Text})
		default:
			unknown[r.Method]++
		}
	}
}

func frameAt(f *record.File, i int) (*Frame, error) {
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

// frameIndex finds where in the file each call's tools/call frames are: a
// request by the progress token the call sent (or, without one, the oldest
// call of that tool still waiting for its request), a response by the
// request's id. The fold has the calls; this is only where their frames are.
type frameIndex struct {
	st       *fold.State
	req, res map[int64]int    // call id → 1-based event number
	byReqID  map[string]int64 // JSON-RPC id of a tools/call → call id
}

func (x *frameIndex) add(i int, ev record.Event) {
	if ev.Kind != record.KindWire || ev.Method != "tools/call" || ev.ID == "" {
		return
	}
	if ev.Dir == record.Recv {
		if id, ok := x.byReqID[ev.ID]; ok && x.res[id] == 0 {
			x.res[id] = i + 1
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
	var id int64
	var token string
	if json.Unmarshal(req.Params.Meta.Token, &token) == nil {
		if _, err := fmt.Sscanf(token, "mcpwitness-%d", &id); err != nil || x.st.Call(id) == nil || fmt.Sprintf("mcpwitness-%d", id) != token {
			id = 0
		}
	}
	if id == 0 {
		// Calls in flight are among the last few started.
		calls := x.st.Calls()
		for _, c := range calls[max(0, len(calls)-64):] {
			if c.Tool == req.Params.Name && x.req[c.ID] == 0 && !c.Done {
				id = c.ID
				break
			}
		}
	}
	if id == 0 || x.req[id] != 0 {
		return
	}
	x.req[id] = i + 1
	x.byReqID[ev.ID] = id
}

// requested reports whether the call's request frame is in the file.
func (c *Call) requested() bool { return c.reqEvent > 0 }

// toolPages returns the pages of a tools walk with their items, the raw
// definitions the fold kept.
func toolPages(w *fold.Walk) []paging.Page {
	out := make([]paging.Page, len(w.Pages))
	for i, p := range w.Pages {
		out[i] = p.Page
		items := make([]json.RawMessage, 0, p.Count)
		for _, t := range w.Tools[min(p.First, len(w.Tools)):min(p.First+p.Count, len(w.Tools))] {
			items = append(items, t.Raw)
		}
		out[i].Items = items
	}
	return out
}

// noteServerRequest keeps a row of the server's own requests: the rows of
// one request (asked, its findings, the answer) make one note, its texts
// joined in order.
func (s *Summary) noteServerRequest(r *fold.Row) {
	if r.Ask != "" {
		for i := len(s.ServerRequests) - 1; i >= s.asksFrom; i-- {
			if n := &s.ServerRequests[i]; n.Ask == r.Ask && n.Method == r.Method {
				n.Text += " · " + r.Text
				return
			}
		}
	}
	if len(s.ServerRequests) < maxNotes {
		s.ServerRequests = append(s.ServerRequests, Note{T: r.T, Method: r.Method, Text: r.Text, Ask: r.Ask})
	}
}
