package ui

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"mcpwitness/paging"
	"mcpwitness/sanitize"
	"mcpwitness/session"
)

// Bounds that keep a long session's memory flat. The session record keeps
// everything; the panes keep the newest.
const (
	maxWireFrames  = 5000
	maxWireBytes   = 64 << 20 // frames kept, in bytes
	maxEventRows   = 2000
	maxRowText     = 2000 // bytes of an events-pane row
	keepWalkTools  = 4    // walks whose tool definitions are kept (older ones keep their summary)
	maxWalks       = 500  // walks kept; older ones are forgotten (the events pane keeps their outcome)
	maxCalls       = 2000 // calls kept; older ones are forgotten
	maxCallBytes   = 32 << 20
	listChangedOut = "notifications/tools/list_changed"
)

// state is everything the panes show. It is built only by [state.Apply]
// from session events, in order, so a recorded session replays into the
// same screens with no server.
type state struct {
	server *session.ServerInfo
	closed bool
	// closedWhy is what the closed event said ("server exited: exit
	// status 3").
	closedWhy string

	gen        int64 // latest settled list generation
	out        int   // list requests out
	lastAnswer time.Time

	walks    []*walkState
	walkByID map[int64]*walkState
	// shown is the tools walk the tools pane shows: the newest that has a
	// page, or the newest at all while none has.
	shown *walkState
	// shownRev changes whenever what the tools pane shows changes.
	shownRev int

	calls     map[int64]*callState
	toolCalls map[string][]*callState
	// callOrder holds the calls kept, oldest first; running those not done.
	callOrder []*callState
	running   []*callState
	// callBytes counts the arguments and answers kept; trimmed is how many
	// of callOrder's oldest calls had theirs dropped to stay in budget.
	callBytes int
	trimmed   int
	callsGone int // calls forgotten
	walksGone int // walks forgotten

	// Frames and rows, once pushed, are never changed: a change replaces.
	wire      ring[*wireFrame]
	wireBytes int
	events    ring[*eventRow]

	// pendingChange is the stream number of the events-pane row of a
	// tools list_changed not yet followed by a walk, or -1.
	pendingChange int64

	// applied counts the events folded in; at is the time of the last,
	// and a replay says in what what it was.
	applied int
	at      time.Time
	what    string
	// made counts the bytes of what was made so far, by kind, for the
	// weight of snapshots (see state.weight).
	made weights

	// lean keeps no bytes a session file can give again: frames and the
	// arguments and answers of calls are read back on demand, by src, the
	// 1-based number in the file of the event being applied.
	lean bool
	src  int
}

// walkState is one walk and its pages in arrival order.
type walkState struct {
	ID         int64
	Method     string
	Start, End time.Time
	Done       bool
	Pages      []pageState
	Tools      []*toolEntry
	Incomplete string
	Err        string
	// Asking is the number of the page last asked for (0 if unknown).
	Asking   int
	Findings []paging.Finding
	Ms       float64
	Items    int
	// AfterChange says the walk started after a list_changed.
	AfterChange bool
	// Changed says a list_changed arrived after the walk started: what it
	// listed may be stale.
	Changed bool
}

// pageState is one accepted page; its tools are Tools[First:First+Count]
// of its walk.
type pageState struct {
	paging.Page
	First int
}

// toolEntry is one listed tool, read from the raw definition the server
// sent. Entries never change once made.
type toolEntry struct {
	Name, Title, Description string
	// Label is the name as shown: controls and escapes made visible.
	Label                 string
	Raw                   json.RawMessage
	Input, Output         json.RawMessage
	Execution, Meta       json.RawMessage
	Annotations           json.RawMessage
	TaskSupport           string
	ReadOnly, Destructive bool
	Idempotent, OpenWorld bool
	Walk                  int64
	Page                  int
	Gen                   int64
	// Bad says why the definition could not be read.
	Bad string
}

// wireFrame is one frame in or out.
type wireFrame struct {
	T       time.Time
	Dir     string
	Method  string
	ID      string
	Size    int
	Frame   json.RawMessage
	Text    string // a frame that was not JSON
	Latency time.Duration
	// Note says what the frame is about in a few words: a tool's name, a
	// cursor, an error.
	Note string
	// Src is the 1-based number in the session file of the event holding
	// the frame when its bytes are not kept (Frame and Text empty), else 0.
	Src int
}

// eventRow is one line of the events pane.
type eventRow struct {
	T     time.Time
	Kind  string // stderr, log, notify, change, walk, call, error, server, session
	Level string // info, warn, error (colours the row)
	Text  string
}

func newState() *state {
	return &state{
		walkByID:      map[int64]*walkState{},
		calls:         map[int64]*callState{},
		toolCalls:     map[string][]*callState{},
		wire:          newRing[*wireFrame](maxWireFrames),
		events:        newRing[*eventRow](maxEventRows),
		pendingChange: -1,
	}
}

// Apply folds one event into the state.
func (s *state) Apply(ev session.Event) {
	s.applied++
	s.at = ev.T
	switch ev.Kind {
	case session.KindConnect:
		if ev.Server != nil {
			srv := *ev.Server
			s.server = &srv
			s.row(ev.T, "session", "info", fmt.Sprintf("connected to %s %s · protocol %s · %s",
				orDash(srv.Name), srv.Version, orDash(srv.ProtocolVersion), orDash(srv.Transport)))
			if srv.Instructions != "" {
				s.row(ev.T, "session", "", "instructions: "+srv.Instructions)
			}
		}
	case session.KindWire:
		s.applyWire(ev)
	case session.KindStderr:
		s.row(ev.T, "stderr", "", ev.Text)
	case session.KindListRequest:
		s.gen, s.out = ev.Gen, ev.Out
		if ev.Walk != nil && ev.Page != nil {
			s.walk(ev.Walk.ID, ev.Walk.Method, ev.T).Asking = ev.Page.Number
		}
	case session.KindPage:
		s.gen, s.out = ev.Gen, ev.Out
		s.applyPage(ev)
	case session.KindWalk:
		s.applyWalk(ev)
	case session.KindCall:
		s.applyCall(ev)
	case session.KindVerdict:
		if ev.Verdict != nil && ev.Call != nil {
			c := s.call(ev.Call.ID, ev.Call.Tool, ev.T)
			c.Verdicts = append(c.Verdicts, *ev.Verdict)
			s.made.calls += verdictWeight
			c.rev++
		}
	case session.KindProgress:
		if p := ev.Progress; p != nil {
			if c := s.calls[p.CallID]; c != nil {
				c = s.own(c)
				c.HasProgress, c.Progress, c.Total, c.ProgressMsg = true, p.Progress, p.Total, p.Message
				c.rev++
			}
		}
	case session.KindNotification:
		s.applyNotification(ev)
	case session.KindServerCall:
		s.row(ev.T, "server", "", ev.Method+": "+ev.Text)
	case session.KindError:
		what := ev.Text
		if ev.Method != "" && !strings.HasPrefix(what, ev.Method) {
			what = ev.Method + ": " + what
		}
		s.row(ev.T, "error", "error", what)
	case session.KindClosed:
		s.closed, s.closedWhy = true, ev.Text
		s.row(ev.T, "session", "", orDash(ev.Text))
	default:
		s.row(ev.T, string(ev.Kind), "", ev.Text)
	}
}

// row adds a line to the events pane; server text in kind or text is
// shown safely.
func (s *state) row(t time.Time, kind, level, text string) {
	kind = sanitize.Line(kind)
	text = oneLine(text)
	if len(text) > maxRowText {
		text = strings.ToValidUTF8(text[:maxRowText], "") + " …"
	}
	s.events.push(&eventRow{T: t, Kind: kind, Level: level, Text: text})
	s.made.rows += rowWeight + len(text)
}

func (s *state) applyWire(ev session.Event) {
	f := wireFrame{T: ev.T, Dir: ev.Dir, Method: ev.Method, ID: ev.ID, Size: ev.Size, Frame: ev.Frame}
	if len(ev.Frame) == 0 {
		f.Text = ev.Text
	} else if ev.LatencyMs > 0 {
		f.Latency = time.Duration(ev.LatencyMs * float64(time.Millisecond))
	}
	if f.Size == 0 {
		f.Size = max(len(ev.Frame), len(ev.Text))
	}
	f.Note = frameNote(ev.Frame)
	if s.lean && s.src > 0 {
		f.Frame, f.Text, f.Src = nil, "", s.src
	}
	if ev.Dir == session.Recv {
		s.lastAnswer = ev.T
	}
	if s.wire.len() == maxWireFrames {
		s.wireBytes -= frameBytes(s.wire.at(0))
	}
	s.wire.push(&f)
	s.wireBytes += frameBytes(&f)
	s.made.frames += frameWeight + frameBytes(&f)
	for s.wireBytes > maxWireBytes && s.wire.len() > 1 {
		s.wireBytes -= frameBytes(s.wire.at(0))
		s.wire.drop()
	}
}

func frameBytes(f *wireFrame) int { return len(f.Frame) + len(f.Text) }

// walk returns walk id, made on first sight, ready to change.
func (s *state) walk(id int64, method string, t time.Time) *walkState {
	if w := s.walkByID[id]; w != nil {
		return s.ownWalk(w)
	}
	w := &walkState{ID: id, Method: method, Start: t}
	s.made.walks += walkWeight
	if s.pendingChange >= 0 && method == paging.Tools().Name {
		w.AfterChange = true
		if r := s.events.abs(s.pendingChange); r != nil {
			row := *r
			row.Text += fmt.Sprintf(" → walk #%d", id)
			s.events.set(s.pendingChange, &row)
		}
		s.pendingChange = -1
	}
	s.walks = append(s.walks, w)
	s.walkByID[id] = w
	s.forgetWalks()
	s.trimWalks()
	if method == paging.Tools().Name && (s.shown == nil || len(s.shown.Pages) == 0) {
		s.shown = w
		s.shownRev++
	}
	return w
}

// forgetWalks keeps the newest [maxWalks] walks, and the shown one.
func (s *state) forgetWalks() {
	for len(s.walks) > maxWalks {
		i := 0
		if s.walks[0] == s.shown {
			i = 1
		}
		delete(s.walkByID, s.walks[i].ID)
		s.walks = append(s.walks[:i], s.walks[i+1:]...)
		s.walksGone++
	}
}

// trimWalks drops the tool definitions of old walks (not the shown one).
func (s *state) trimWalks() {
	kept := 0
	for i := len(s.walks) - 1; i >= 0; i-- {
		w := s.walks[i]
		if w.Tools == nil {
			continue
		}
		kept++
		if kept > keepWalkTools && w != s.shown {
			s.ownWalk(w).Tools = nil
		}
	}
}

func (s *state) applyPage(ev session.Event) {
	if ev.Page == nil {
		return
	}
	method := ev.Method
	var id int64
	if ev.Walk != nil {
		id = ev.Walk.ID
		if method == "" {
			method = ev.Walk.Method
		}
	}
	w := s.walk(id, method, ev.T)
	p := pageState{Page: *ev.Page, First: len(w.Tools)}
	p.Items = nil
	if method == paging.Tools().Name || method == "" {
		for _, raw := range ev.Items {
			t := readTool(raw)
			t.Walk, t.Page, t.Gen = w.ID, p.Number, p.Generation
			w.Tools = append(w.Tools, t)
			s.made.walks += toolWeight(t)
		}
	}
	p.Count = len(w.Tools) - p.First
	w.Pages = append(w.Pages, p)
	s.made.walks += pageWeight
	if method == paging.Tools().Name || method == "" {
		s.shown = w
		s.shownRev++
	}
}

func (s *state) applyWalk(ev session.Event) {
	info := ev.Walk
	if info == nil {
		return
	}
	method := info.Method
	if method == "" {
		method = ev.Method
	}
	w := s.walk(info.ID, method, ev.T)
	if info.State != "done" {
		return
	}
	s.gen, s.out = ev.Gen, ev.Out
	w.Done, w.End = true, ev.T
	w.Incomplete, w.Err, w.Findings, w.Ms, w.Items = info.Incomplete, info.Error, info.Findings, info.Ms, info.Items
	if w == s.shown {
		s.shownRev++
	}
	text := fmt.Sprintf("walk #%d %s: %s · %d items · %s", w.ID, method, walkSummary(w), w.Items, fmtMs(w.Ms))
	if w.AfterChange {
		text += " (after list_changed)"
	}
	level := "info"
	if w.Incomplete != "" {
		level = "warn"
		if w.Err != "" {
			text += " · " + w.Err
		}
	}
	s.row(ev.T, "walk", level, text)
	for _, f := range w.Findings {
		lvl := "warn"
		if f.Severity == paging.SeverityInfo {
			lvl = ""
		}
		s.row(ev.T, "walk", lvl, fmt.Sprintf("walk #%d %s: %s", w.ID, f.Check, f.Message))
	}
}

func (s *state) applyNotification(ev session.Event) {
	switch {
	case ev.Method == "notifications/message":
		level := ""
		switch ev.Level {
		case "warning", "notice":
			level = "warn"
		case "error", "critical", "alert", "emergency":
			level = "error"
		}
		s.row(ev.T, "log "+shortLevel(ev.Level), level, ev.Text)
	case ev.Method == listChangedOut:
		s.row(ev.T, "change", "warn", "tools/list_changed")
		s.pendingChange = s.events.total() - 1
		for _, w := range s.walks {
			if w.Method == paging.Tools().Name && !w.Changed {
				w = s.ownWalk(w)
				w.Changed = true
				if w == s.shown {
					s.shownRev++
				}
			}
		}
	case strings.HasSuffix(ev.Method, "/list_changed"):
		s.row(ev.T, "change", "", strings.TrimPrefix(ev.Method, "notifications/"))
	default:
		text := strings.TrimPrefix(ev.Method, "notifications/")
		if ev.Text != "" {
			text += ": " + ev.Text
		} else if len(ev.Data) > 0 && string(ev.Data) != "{}" {
			text += " " + string(ev.Data)
		}
		s.row(ev.T, "notify", "", text)
	}
}

// latestTools returns the newest tools walk, or nil.
func (s *state) latestTools() *walkState {
	for i := len(s.walks) - 1; i >= 0; i-- {
		if s.walks[i].Method == paging.Tools().Name {
			return s.walks[i]
		}
	}
	return nil
}

// held reports whether a typical SDK client holds its per-tool call checks
// for the tools of w: one page, complete, still the latest answer, nothing
// out.
func (s *state) held(w *walkState) bool {
	return w != nil && w.Done && len(w.Pages) == 1 && w.Incomplete == "" && w.Err == "" &&
		w.Pages[0].Generation == s.gen && s.out == 0
}

// stale reports whether the definitions w listed may be out of date: the
// server said its list changed after w started.
func (s *state) stale(w *walkState) bool { return w != nil && w.Changed }
