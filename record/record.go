package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// FormatName and FormatVersion identify session files (format 1).
const (
	FormatName    = "mcpwitness-session"
	FormatVersion = 1
)

// Header is the first line of a session file.
type Header struct {
	Format  string     `json:"format"`
	Version int        `json:"version"`
	Tool    string     `json:"tool"`
	Target  TargetInfo `json:"target"`
	Started time.Time  `json:"started"`
}

// NewHeader returns the header for a session on target, started now.
func NewHeader(tool string, target TargetInfo) Header {
	return Header{Format: FormatName, Version: FormatVersion, Tool: tool, Target: target, Started: time.Now()}
}

// Recorder streams a session log to a writer as JSON Lines, one write per
// line so a file cut off by a crash ends on a whole line. Every line passes
// through the redactor first.
//
// Each byte is kept once: a wire frame is written as it came (compacted
// onto one line if it spans several, never re-encoded, nothing escaped),
// and a page event whose [paging.Page.Frame] names a frame this recorder
// wrote leaves its items out: [File.Event] reads them back from that frame.
type Recorder struct {
	mu    sync.Mutex
	w     io.Writer
	red   *Redactor
	err   error
	errEv Event // the seq and time of the event whose write failed
	n     int64
	first int64 // the sequence number of the first event written; 0 before it
	buf   bytes.Buffer
	enc   *json.Encoder // encodes into buf, escaping no HTML
}

// NewRecorder writes the header to w and returns a recorder for the events
// that follow.
func NewRecorder(w io.Writer, h Header, red *Redactor) (*Recorder, error) {
	r := &Recorder{w: w, red: red}
	r.enc = json.NewEncoder(&r.buf)
	r.enc.SetEscapeHTML(false)
	if err := r.writeLine(h); err != nil {
		return nil, err
	}
	return r, nil
}

// Write records one event. The first failure is kept (see [Recorder.Err]);
// later events are dropped rather than written after a gap.
func (r *Recorder) Write(ev Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.err != nil {
		return
	}
	if r.first == 0 {
		r.first = ev.Seq
	}
	frame := ev.Frame
	ev.Frame = nil
	r.trim(&ev)
	if err := r.writeLineLocked(ev, frame); err != nil {
		r.err, r.errEv = err, Event{Seq: ev.Seq, T: ev.T}
	}
}

// trim leaves out of ev what the record says already, so that a walk's
// events cost little beside its frames; [File.Event] puts it back. ev's
// walk and page are copied before they change: other sinks share them.
//
//   - a walk's method, when it is the event's, and its state in a page or
//     list-request event, which always has the same;
//   - a page's generation, when it is the event's gen;
//   - a page's items, item count, nextCursor, ttlMs and request id, when
//     its frame is in this record: they are read back from the frame.
func (r *Recorder) trim(ev *Event) {
	if w := ev.Walk; w != nil && (w.Method != "" && w.Method == ev.Method || w.State == impliedPhase(ev.Kind)) {
		c := *w
		if c.Method == ev.Method {
			c.Method = ""
		}
		if c.State == impliedPhase(ev.Kind) {
			c.State = ""
		}
		ev.Walk = &c
	}
	if ev.Kind != KindPage || ev.Page == nil {
		return
	}
	p := *ev.Page
	if p.Generation == ev.Gen {
		p.Generation = 0
	}
	if p.Frame > 0 && p.Frame >= r.first {
		p.Items, p.Keys, p.Count, p.NextCursor, p.TTLMs, p.HasTTL, p.RequestID = nil, nil, 0, "", 0, false, ""
		ev.Items = nil
	}
	ev.Page = &p
}

// impliedPhase is the walk phase an event of kind k always has ("" when
// none): a record leaves it out.
func impliedPhase(k Kind) Phase {
	switch k {
	case KindPage:
		return PhasePage
	case KindListRequest:
		return PhaseRequest
	}
	return ""
}

// untrim puts back in ev, read from a record, what [Recorder.trim] left out
// of it and the event itself says; the page's frame gives the rest (see
// [File.Event]).
func untrim(ev *Event) {
	if w := ev.Walk; w != nil {
		if w.Method == "" {
			w.Method = ev.Method
		}
		if w.State == "" {
			w.State = impliedPhase(ev.Kind)
		}
	}
	if ev.Kind == KindPage && ev.Page != nil && ev.Page.Generation == 0 {
		ev.Page.Generation = ev.Gen // a page's generation is never 0
	}
}

// Err returns the first write error, if any.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

// failed returns the first write error, if any, with the sequence number
// and time of the event that was not written.
func (r *Recorder) failed() (seq int64, at time.Time, err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.errEv.Seq, r.errEv.T, r.err
}

// Lines returns how many lines were written, the header included.
func (r *Recorder) Lines() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

func (r *Recorder) writeLine(v any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writeLineLocked(v, nil)
}

// writeLineLocked writes v, a JSON object, as one line; a frame, if any,
// is added as its "frame" field as it is, compacted.
func (r *Recorder) writeLineLocked(v any, frame json.RawMessage) error {
	r.buf.Reset()
	if err := r.enc.Encode(v); err != nil {
		return fmt.Errorf("encoding session line: %w", err)
	}
	if len(frame) == 0 {
		r.buf.Truncate(r.buf.Len() - 1) // the encoder's newline
	} else {
		r.buf.Truncate(r.buf.Len() - 2) // the object's closing brace and the newline
		r.buf.WriteString(`,"frame":`)
		if !spaced(frame) {
			r.buf.Write(frame) // compact already, as most frames come
		} else if err := json.Compact(&r.buf, frame); err != nil {
			return fmt.Errorf("encoding session line: the frame is not JSON: %w", err)
		}
		r.buf.WriteByte('}')
	}
	b := r.buf.Bytes()
	b = append(r.red.JSON(b), '\n')
	if _, err := r.w.Write(b); err != nil {
		return fmt.Errorf("writing session record: %w", err)
	}
	r.n++
	return nil
}

// spaced reports whether the JSON text b has space between its tokens
// (outside its strings), which json.Compact would take out. A frame is
// valid JSON (the tap records any other as text), so the answer decides
// whether it needs compacting: a scan costs a fifth of json.Compact, and
// most servers send frames with no such space.
func spaced(b []byte) bool {
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == ' ' || c == '\t' || c == '\n' || c == '\r'):
			return true
		}
	}
	return false
}

// RecordFile is a session record streamed to a file of its own as the
// session runs (--record), one write per line, redacted: a file cut off by
// a crash reads up to its last whole line. It is a [Log] sink.
type RecordFile struct {
	f   *os.File
	rec *Recorder
}

// CreateRecord creates the file at path and writes h, the header, to it.
// An existing file is never replaced: the error then wraps [fs.ErrExist].
func CreateRecord(path string, h Header, red *Redactor) (*RecordFile, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return nil, err
	}
	return newRecordFile(f, h, red)
}

func newRecordFile(f *os.File, h Header, red *Redactor) (*RecordFile, error) {
	rec, err := NewRecorder(f, h, red)
	if err != nil {
		f.Close()
		return nil, err
	}
	return &RecordFile{f: f, rec: rec}, nil
}

// Write records one event (see [Recorder.Write]).
func (r *RecordFile) Write(ev Event) { r.rec.Write(ev) }

// Close syncs and closes the file. Its error is the first write that
// failed, when one did (the record then ends before it), else a failed sync
// or close. Close the log first: events written after Close are dropped.
func (r *RecordFile) Close() error {
	serr := r.f.Sync()
	cerr := r.f.Close()
	if err := r.rec.Err(); err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("syncing %s: %w", r.f.Name(), serr)
	}
	if cerr != nil {
		return fmt.Errorf("closing %s: %w", r.f.Name(), cerr)
	}
	return nil
}

// TargetInfo describes a target with its secrets replaced, as the session
// file's header and the UI show it.
type TargetInfo struct {
	Transport string            `json:"transport"`
	Command   []string          `json:"command,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
	Dir       string            `json:"cwd,omitempty"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Name      string            `json:"name,omitempty"`
	// Config is the target's configuration identity, when known.
	Config *Identity `json:"config,omitempty"`
}

// String is a one-line, redacted description of the target.
func (i TargetInfo) String() string {
	switch i.Transport {
	case "stdio":
		return strings.Join(i.Command, " ")
	case "http", "sse":
		return i.URL
	default:
		return i.Name
	}
}
