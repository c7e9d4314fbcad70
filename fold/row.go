package fold

import (
	"encoding/json"
	"strings"
	"time"

	"mcpwitness/finding"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// RowKind is what a [Row] is about.
type RowKind string

// The kinds of rows.
const (
	RowConnect      RowKind = "connect"       // the handshake: Server
	RowInstructions RowKind = "instructions"  // the server's instructions: Text
	RowStderr       RowKind = "stderr"        // a stderr line: Text
	RowLog          RowKind = "log"           // a log message: LogLevel, Text
	RowToolsChanged RowKind = "tools-changed" // the tool list changed; Walk names the walk that followed, once one did
	RowChanged      RowKind = "changed"       // another list changed: Method
	RowNotify       RowKind = "notify"        // another notification: Method, Text, Data
	RowWalk         RowKind = "walk"          // a walk ended: Walk
	RowFinding      RowKind = "finding"       // a finding of a walk: Walk, Finding
	RowCall         RowKind = "call"          // a call ended: Call
	RowServerCall   RowKind = "server"        // the server's own request: Method, Text
	RowError        RowKind = "error"         // an error: Method, Text
	RowClosed       RowKind = "closed"        // the connection ended: Text
	RowFile         RowKind = "file"          // about the record itself: Text
	RowOther        RowKind = "other"         // an event of a kind this version does not know: Method is its kind
)

// Level is how much a row matters.
type Level string

// The levels of rows.
const (
	LevelNone  Level = ""
	LevelInfo  Level = "info"
	LevelWarn  Level = "warn"
	LevelError Level = "error"
)

// Row is one thing that happened besides frames, as it happened: what is
// shown of it, and how, is the reader's to decide. Rows never change once
// made. Server text is kept as sent (cut to [MaxRowText] bytes), not
// cleaned: a reader that shows it must sanitise it.
type Row struct {
	T     time.Time
	Kind  RowKind
	Level Level
	// Method is the notification's, error's or server request's method.
	Method string
	// Ask is the server request a row of one is about (its event ID,
	// "ask-1"): its asking, findings and answer share it.
	Ask  string
	Text string
	// Cut says Text was cut to [MaxRowText] bytes.
	Cut bool
	// LogLevel is a log message's level as the server sent it.
	LogLevel string
	// Data is a notification's params.
	Data   json.RawMessage
	Server *record.ServerInfo
	Walk   *WalkRow
	// Finding is a walk's finding, with Walk.
	Finding *finding.Finding
	Call    *Call
}

// WalkRow is what a row keeps of a walk when it ended.
type WalkRow struct {
	ID          int64
	Method      string
	Pages       int
	Items       int
	Ms          float64
	Incomplete  paging.Incomplete
	Err         string
	AfterChange bool
}

// row adds r, its text cut to [MaxRowText] bytes.
func (s *State) row(r *Row) {
	if len(r.Text) > MaxRowText {
		r.Text, r.Cut = strings.ToValidUTF8(r.Text[:MaxRowText], ""), true
	}
	if len(r.Data) > MaxRowText {
		r.Data, r.Cut = r.Data[:MaxRowText:MaxRowText], true
	}
	s.rows.push(r)
	s.made.rows += rowWeight + len(r.Text) + len(r.Data)
}

func (s *State) applyNotification(ev record.Event) {
	switch {
	case ev.Method == "notifications/message":
		level := LevelNone
		switch ev.Level {
		case "warning", "notice":
			level = LevelWarn
		case "error", "critical", "alert", "emergency":
			level = LevelError
		}
		s.row(&Row{T: ev.T, Kind: RowLog, Level: level, Method: ev.Method, LogLevel: ev.Level, Text: ev.Text})
	case ev.Method == ToolsListChanged:
		s.row(&Row{T: ev.T, Kind: RowToolsChanged, Level: LevelWarn, Method: ev.Method})
		s.pendingChange = s.rows.Total() - 1
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
		s.row(&Row{T: ev.T, Kind: RowChanged, Method: ev.Method})
		s.markChanged(ev.Method)
	default:
		s.row(&Row{T: ev.T, Kind: RowNotify, Method: ev.Method, Text: ev.Text, Data: ev.Data})
	}
}
