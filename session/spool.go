package session

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"
)

// Spool keeps a live session's record on disk while it runs, so that
// [Spool.Export] can copy it at any moment without holding it in memory:
// however long the session, memory stays flat and the spool is bounded by
// the disk. The spool's file is temporary; [Spool.Close] removes it. Add
// [Spool.Write] to the session's [Log] as a sink.
type Spool struct {
	rec *RecordFile
	mu  sync.Mutex // serialises exports
}

// NewSpool creates the spool file in the system's temporary directory and
// writes h, the header, to it. Events pass through red on their way in.
func NewSpool(h Header, red *Redactor) (*Spool, error) {
	f, err := os.CreateTemp("", "mcpwitness-spool-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("creating the session spool file: %w", err)
	}
	rec, err := newRecordFile(f, h, red)
	if err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("writing the session spool file: %w", err)
	}
	return &Spool{rec: rec}, nil
}

// Write records one event; it runs as a log sink, under the log's lock,
// and never waits for an export.
func (s *Spool) Write(ev Event) { s.rec.Write(ev) }

// Export writes the record so far to a new file in dir ("" is the current
// directory) named mcpwitness-YYYYMMDD-HHMMSS.jsonl (-2, -3… before
// .jsonl when that name is taken), and returns the file's absolute path
// and how many lines it holds, the header included.
//
// The export is atomic: a temporary file in dir, synced, then given its
// name, so the name never shows a partial file, even after a crash, and an
// existing file is never replaced. A line being written right now is left
// for the next export. On failure nothing is left behind and the spool
// goes on.
func (s *Spool) Export(ctx context.Context, dir string) (path string, lines int64, err error) {
	return s.export(ctx, dir, time.Now())
}

func (s *Spool) export(ctx context.Context, dir string, now time.Time) (string, int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.rec.rec.Err(); err != nil {
		return "", 0, fmt.Errorf("the session spool failed earlier (%w)", err)
	}
	f := s.rec.f
	st, err := f.Stat()
	if err != nil {
		return "", 0, fmt.Errorf("reading the session spool: %w", err)
	}
	end, err := wholeLines(f, st.Size())
	if err != nil {
		return "", 0, fmt.Errorf("reading the session spool: %w", err)
	}
	return exportLines(ctx, f, end, dir, now)
}

// Close removes the spool file. Close the log first: events written after
// Close are dropped.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rec.f.Close()
	if err := os.Remove(s.rec.f.Name()); err != nil {
		return fmt.Errorf("removing the session spool: %w", err)
	}
	return nil
}
