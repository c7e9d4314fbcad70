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
// the disk. A spool made by [NewSpool] has a temporary file of its own,
// which [Spool.Close] removes; add [Spool.Write] to the session's [Log] as
// a sink. One made by [FollowRecord] keeps no file: it exports the session's
// record (--record), so that each event is written once.
type Spool struct {
	rec *RecordFile
	// src is what exports read: the spool's own file, or the record's
	// opened again for reading.
	src *os.File
	own bool       // the file is the spool's: Write writes to it, Close removes it
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
	return &Spool{rec: rec, src: f, own: true}, nil
}

// FollowRecord returns a spool whose exports copy rec, a record the
// session's log is writing to (its [RecordFile.Write] a sink of the log):
// the same lines a spool of its own would hold, with no second file and no
// event written twice. Its [Spool.Write] does nothing; [Spool.Close] leaves
// the record alone (close rec as well, after the log).
func FollowRecord(rec *RecordFile) (*Spool, error) {
	name := rec.f.Name()
	src, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("opening the record %s to export from it: %w", name, err)
	}
	a, aerr := rec.f.Stat()
	b, berr := src.Stat()
	if aerr != nil || berr != nil || !os.SameFile(a, b) {
		src.Close()
		return nil, fmt.Errorf("opening the record %s to export from it: the file by that name is no longer the record", name)
	}
	return &Spool{rec: rec, src: src}, nil
}

// Write records one event; it runs as a log sink, under the log's lock,
// and never waits for an export. A spool that follows a record writes
// nothing: the record's own sink does.
func (s *Spool) Write(ev Event) {
	if s.own {
		s.rec.Write(ev)
	}
}

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
	what := "the session spool"
	if !s.own {
		what = "the session record " + s.src.Name()
	}
	if err := s.rec.rec.Err(); err != nil {
		return "", 0, fmt.Errorf("%s failed earlier (%w)", what, err)
	}
	f := s.src
	st, err := f.Stat()
	if err != nil {
		return "", 0, fmt.Errorf("reading %s: %w", what, err)
	}
	end, err := wholeLines(f, st.Size())
	if err != nil {
		return "", 0, fmt.Errorf("reading %s: %w", what, err)
	}
	return exportLines(ctx, f, end, dir, now)
}

// Close removes the spool file, or, for a spool that follows a record,
// stops reading the record and leaves it as it is. Close the log first:
// events written after Close are dropped.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.own {
		s.src.Close()
		return nil
	}
	s.rec.f.Close()
	if err := os.Remove(s.rec.f.Name()); err != nil {
		return fmt.Errorf("removing the session spool: %w", err)
	}
	return nil
}
