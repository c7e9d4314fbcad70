// Package fold turns a session's event stream into the session's state:
// the server, walks and their pages and tools (with generation and
// held/own), calls with their verdicts, the wire frames and the rows of
// what else happened. [State.Apply] is the only way in, one event at a
// time and in order, so a recorded session folds into the same state as
// the live one it records.
//
// The fold is pure: no I/O, nothing shown. The UI, the replay of a session
// file and the Markdown report all read a [State].
package fold

import (
	"strings"
	"time"

	"mcpwitness/paging"
	"mcpwitness/record"
)

// Bounds that keep a long session's memory flat. The session record keeps
// everything; the state keeps the newest.
const (
	// MaxFrames is the most wire frames kept.
	MaxFrames = 5000
	// MaxFrameBytes is the most bytes of frames kept.
	MaxFrameBytes = 64 << 20
	// MaxRows is the most rows kept.
	MaxRows = 2000
	// MaxRowText is the most bytes of a row's text kept.
	MaxRowText = 2000

	keepWalkTools = 4    // walks whose tool definitions are kept (older ones keep their summary)
	maxWalks      = 500  // walks kept; older ones are forgotten (the rows keep their outcome)
	maxCalls      = 2000 // calls kept; older ones are forgotten
	maxCallBytes  = 32 << 20
)

// ToolsListChanged is the method of the notification that says the
// server's tool list changed.
const ToolsListChanged = "notifications/tools/list_changed"

// State is a session folded. It is built only by [State.Apply] from
// session events, in order. Walks, calls, frames, rows and tools it hands
// out must not be changed by the caller; once finished they never change
// (a change replaces them), so a [State.Clone] shares them.
type State struct {
	server *record.ServerInfo
	closed bool
	// closedWhy is what the closed event said ("server exited: exit
	// status 3").
	closedWhy string

	gen        int64 // latest settled list generation
	out        int   // list requests out
	lastAnswer time.Time

	walks    []*Walk
	walkByID map[int64]*Walk
	// shown is the tools walk to show: the newest that has a page, or the
	// newest at all while none has.
	shown *Walk
	// shownRev changes whenever shown changes.
	shownRev int

	calls     map[int64]*Call
	toolCalls map[string][]*Call
	// callOrder holds the calls kept, oldest first; running those not done.
	callOrder []*Call
	running   []*Call
	// callBytes counts the arguments and answers kept; trimmed is how many
	// of callOrder's oldest calls had theirs dropped to stay in budget.
	callBytes int
	trimmed   int
	// toolStats sums up each tool's calls (see toolstats.go); replaced,
	// never changed in place.
	toolStats toolStatsTable

	// Frames and rows, once pushed, are never changed: a change replaces.
	wire      Ring[*Frame]
	wireBytes int
	rows      Ring[*Row]

	// pendingChange is the stream number of the row of a tools
	// list_changed not yet followed by a walk, or -1.
	pendingChange int64

	// applied counts the events folded in; at is the time of the last.
	applied int
	at      time.Time
	// made counts the bytes of what was made so far, by kind, for the
	// weight of snapshots (see [State.Weigh]).
	made weights

	// lean keeps no bytes a session file can give again: frames and the
	// arguments and answers of calls are read back on demand, by src, the
	// 1-based number in the file of the event being applied.
	lean bool
	src  int
	// keepAll forgets no walk or call.
	keepAll bool

	// others holds the items of the lists other than tools and the
	// requests about them; never changed in place (see items.go).
	others *others
	// tasks holds the tasks; never changed in place (see task.go).
	tasks *taskBook
}

// Options tune [New]. nil means defaults.
type Options struct {
	// Lean keeps no bytes a session file can give again: frames and the
	// arguments and answers of calls applied with [State.ApplyAt] are
	// kept as the number of their event in the file (Frame.Src,
	// Call.ArgsSrc, Call.ResultSrc), to be read back on demand.
	Lean bool
	// At is the time of the state before any event.
	At time.Time
	// KeepAll forgets no walk and no call, for a reader that needs them
	// all (a report); frames, rows, tool definitions and the bytes of
	// calls stay bounded.
	KeepAll bool
}

// New returns an empty state.
func New(opts *Options) *State {
	s := &State{
		walkByID:      map[int64]*Walk{},
		calls:         map[int64]*Call{},
		toolCalls:     map[string][]*Call{},
		wire:          newRing[*Frame](MaxFrames),
		rows:          newRing[*Row](MaxRows),
		pendingChange: -1,
	}
	if opts != nil {
		s.lean, s.at, s.keepAll = opts.Lean, opts.At, opts.KeepAll
	}
	return s
}

// ApplyAt folds ev, the event numbered src (1-based) in a session file:
// a lean state keeps that number instead of the event's bytes.
func (s *State) ApplyAt(ev record.Event, src int) {
	s.src = src
	s.Apply(ev)
	s.src = 0
}

// Apply folds one event into the state.
func (s *State) Apply(ev record.Event) {
	s.applied++
	s.at = ev.T
	switch ev.Kind {
	case record.KindConnect:
		s.applyConnect(ev)
	case record.KindWire:
		s.applyWire(ev)
	case record.KindStderr:
		s.row(&Row{T: ev.T, Kind: RowStderr, Text: ev.Text})
	case record.KindListRequest:
		s.gen, s.out = ev.Gen, ev.Out
		if ev.Walk != nil && ev.Page != nil {
			s.walk(ev.Walk.ID, ev.Walk.Method, ev.T).Asking = ev.Page.Number
		}
	case record.KindPage:
		s.gen, s.out = ev.Gen, ev.Out
		s.applyPage(ev)
		s.applyItems(ev)
		s.applyTaskPage(ev)
	case record.KindWalk:
		s.applyWalk(ev)
	case record.KindCall:
		s.applyCall(ev)
	case record.KindVerdict:
		if ev.Request != nil {
			s.applyRequest(ev)
		} else {
			s.applyVerdict(ev)
		}
	case record.KindRequest:
		s.applyRequest(ev)
	case record.KindProgress:
		s.applyProgress(ev)
	case record.KindTask:
		s.applyTask(ev)
	case record.KindNotification:
		s.applyUpdated(ev)
		s.applyNotification(ev)
	case record.KindServerCall:
		s.row(&Row{T: ev.T, Kind: RowServerCall, Method: ev.Method, Text: ev.Text, Ask: ev.ID})
	case record.KindError:
		s.row(&Row{T: ev.T, Kind: RowError, Level: LevelError, Method: ev.Method, Text: ev.Text})
	case record.KindClosed:
		s.closed, s.closedWhy = true, ev.Text
		s.row(&Row{T: ev.T, Kind: RowClosed, Text: ev.Text})
	case record.KindHTTP:
		s.applyHTTP(ev)
	default:
		s.row(&Row{T: ev.T, Kind: RowOther, Method: string(ev.Kind), Text: otherText(ev)})
	}
}

// otherText is what the row of an event of another kind says: for the
// announcement of a server of several, its names, its target (redacted)
// and its config hash; else the event's text.
func otherText(ev record.Event) string {
	if ev.Kind != record.KindServer || ev.Target == nil {
		return ev.Text
	}
	var parts []string
	if len(ev.Source) > 0 {
		parts = append(parts, strings.Join(ev.Source, " = "))
	}
	parts = append(parts, ev.Target.Transport+" "+ev.Target.String())
	if c := ev.Target.Config; c != nil {
		parts = append(parts, "config "+c.Short())
	}
	return strings.Join(parts, " · ")
}

// applyConnect keeps what the handshake told about the server and adds its
// rows: the connection, then the server's instructions when it gave any.
func (s *State) applyConnect(ev record.Event) {
	if ev.Server == nil {
		return
	}
	srv := *ev.Server
	s.server = &srv
	// A connection after the end of one (a restart) is live again.
	s.closed, s.closedWhy = false, ""
	s.row(&Row{T: ev.T, Kind: RowConnect, Level: LevelInfo, Server: &srv})
	if srv.Instructions != "" {
		s.row(&Row{T: ev.T, Kind: RowInstructions, Text: srv.Instructions})
	}
}

// applyVerdict adds a check's verdict to its call.
func (s *State) applyVerdict(ev record.Event) {
	if ev.Verdict == nil || ev.Call == nil {
		return
	}
	c := s.call(ev.Call.ID, ev.Call.Tool, ev.T)
	c.Verdicts = append(c.Verdicts, *ev.Verdict)
	s.made.calls += verdictWeight
	c.Rev++
}

// applyProgress updates the progress of the call in flight it names; a
// report for a call the state does not know is dropped.
func (s *State) applyProgress(ev record.Event) {
	p := ev.Progress
	if p == nil {
		return
	}
	c := s.calls[p.CallID]
	if c == nil {
		return
	}
	c = s.own(c)
	c.HasProgress, c.Progress, c.Total, c.ProgressMsg = true, p.Progress, p.Total, p.Message
	c.Updates++
	c.Rev++
}

// Server returns what the handshake told about the server, or nil before
// it.
func (s *State) Server() *record.ServerInfo { return s.server }

// Closed reports whether the connection ended.
func (s *State) Closed() bool { return s.closed }

// ClosedWhy returns what the closed event said ("server exited: exit
// status 3").
func (s *State) ClosedWhy() string { return s.closedWhy }

// Gen returns the latest settled list generation.
func (s *State) Gen() int64 { return s.gen }

// Out returns the number of list requests out.
func (s *State) Out() int { return s.out }

// LastAnswer returns the time of the last frame received.
func (s *State) LastAnswer() time.Time { return s.lastAnswer }

// Applied returns the number of events folded in.
func (s *State) Applied() int { return s.applied }

// At returns the time of the last event folded in.
func (s *State) At() time.Time { return s.at }

// Frames returns the wire frames kept, the newest [MaxFrames] within
// [MaxFrameBytes].
func (s *State) Frames() *Ring[*Frame] { return &s.wire }

// Rows returns the rows kept, the newest [MaxRows].
func (s *State) Rows() *Ring[*Row] { return &s.rows }

// Warn adds a row about the record itself (a line of a session file the
// reader forgave), at t.
func (s *State) Warn(t time.Time, text string) {
	s.row(&Row{T: t, Kind: RowFile, Level: LevelWarn, Text: text})
}

// Held reports whether a typical SDK client holds its per-tool call checks
// for the tools of w now: decided by [paging.Holds].
func (s *State) Held(w *Walk) bool {
	return w != nil && len(w.Pages) > 0 &&
		paging.Holds(len(w.Pages), w.Pages[0].Generation, w.Complete(), s.gen, s.out)
}
