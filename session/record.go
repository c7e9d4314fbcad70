package session

import (
	"encoding/json"
	"fmt"
	"io"
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
type Recorder struct {
	mu  sync.Mutex
	w   io.Writer
	red *Redactor
	err error
	n   int64
}

// NewRecorder writes the header to w and returns a recorder for the events
// that follow.
func NewRecorder(w io.Writer, h Header, red *Redactor) (*Recorder, error) {
	r := &Recorder{w: w, red: red}
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
	if err := r.writeLineLocked(ev); err != nil {
		r.err = err
	}
}

// Err returns the first write error, if any.
func (r *Recorder) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
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
	return r.writeLineLocked(v)
}

func (r *Recorder) writeLineLocked(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encoding session line: %w", err)
	}
	b = append(r.red.JSON(b), '\n')
	if _, err := r.w.Write(b); err != nil {
		return fmt.Errorf("writing session record: %w", err)
	}
	r.n++
	return nil
}
