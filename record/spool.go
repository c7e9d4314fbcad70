package record

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// DefaultSpoolMax is where a spool of its own stops taking events when
// [SpoolOptions] name no bound: 1 GiB, some four minutes of a server
// flooding notifications.
const DefaultSpoolMax int64 = 1 << 30

// SpoolOptions tune a spool made by [NewSpool]. nil means defaults.
type SpoolOptions struct {
	// Max bounds the spool file, in bytes: the line that would take it
	// past Max is not written, nor any after it, and one last event says
	// so. 0 means [DefaultSpoolMax]; a negative Max, no bound.
	Max int64
	// Stopped, when set, is called once with the event that says the
	// spool stopped taking events: it reached Max, or a write failed (a
	// full disk). It may run in [Spool.Write], a sink of the session's
	// log, so it must not append to that log before it returns.
	Stopped func(Event)
}

// Spool keeps a live session's record on disk while it runs, so that
// [Spool.Export] can copy it at any moment without holding it in memory:
// however long the session, memory stays flat. A spool made by [NewSpool]
// has a temporary file of its own, bounded by [SpoolOptions.Max], which
// is gone when the spool is closed or the process ends, however it ends;
// add [Spool.Write] to the session's [Log] as a sink. One made by
// [FollowRecord] keeps no file: it exports the session's record
// (--record), so that each event is written once; a record is the user's
// own file and has no bound.
type Spool struct {
	rec *RecordFile
	// src is what exports read: the spool's own file, or the record's
	// opened again for reading.
	src *os.File
	own bool       // the file is the spool's: Write writes to it, Close ends it
	mu  sync.Mutex // serialises exports
	// linked is the name of a spool's own file while it has one: the
	// file is unlinked as soon as it is made, where the system allows it
	// (exports read it through src), so that a killed process leaves no
	// spool behind; elsewhere Close removes it.
	linked string

	max     int64       // the bound of a spool of its own; none when <= 0
	onStop  func(Event) // SpoolOptions.Stopped
	stopped sync.Once   // the stop is noted once, by Write or an export
}

// Exported is what [Spool.Export] wrote.
type Exported struct {
	Path  string // the new file's absolute path
	Lines int64  // how many lines it holds, the header included
	// Stopped, when the spool stopped taking events before the export
	// (its bound, or a failed write), says when and why: "the spool
	// stopped at 14:03:22: it reached its cap of 1 GiB". The file holds
	// every whole line written before that and, at the bound, the event
	// saying so.
	Stopped string
}

// errSpoolFull is the write a spool of its own refuses at its bound.
var errSpoolFull = errors.New("the export spool is full")

// capWriter writes to w until a write would take it past max bytes: that
// write and every one after it write nothing and fail with errSpoolFull.
// A [Recorder] writes one whole line per Write, so the file ends on a
// whole line.
type capWriter struct {
	w   io.Writer
	n   int64
	max int64 // no bound when <= 0
}

func (c *capWriter) Write(p []byte) (int, error) {
	if c.max > 0 && c.n+int64(len(p)) > c.max {
		return 0, errSpoolFull
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// NewSpool creates the spool file in the system's temporary directory,
// unlinks it where the system allows an open file to lose its name, and
// writes h, the header, to it. Events pass through red on their way in.
func NewSpool(h Header, red *Redactor, opts *SpoolOptions) (*Spool, error) {
	var o SpoolOptions
	if opts != nil {
		o = *opts
	}
	if o.Max == 0 {
		o.Max = DefaultSpoolMax
	}
	f, err := os.CreateTemp("", "mcpwitness-spool-*.jsonl")
	if err != nil {
		return nil, fmt.Errorf("creating the session spool file: %w", err)
	}
	rec, err := NewRecorder(&capWriter{w: f, max: o.Max}, h, red)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		if errors.Is(err, errSpoolFull) {
			err = fmt.Errorf("its cap of %s is less than the header", ByteSize(o.Max))
		}
		return nil, fmt.Errorf("writing the session spool file: %w", err)
	}
	s := &Spool{rec: &RecordFile{f: f, rec: rec}, src: f, own: true, max: o.Max, onStop: o.Stopped}
	if os.Remove(f.Name()) != nil {
		s.linked = f.Name()
	}
	return s, nil
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
//
// The event that would take a spool of its own past its bound is not
// written, nor any after it: an error event takes its place, the last
// line, saying when the spool stopped and what to do instead. After a
// failed write nothing more is written. Either way
// [SpoolOptions.Stopped] hears of it.
func (s *Spool) Write(ev Event) {
	if !s.own {
		return
	}
	s.rec.Write(ev)
	s.noteStop()
}

// noteStop, once the record has failed a write, writes the spool's last
// line when its bound stopped it and tells [SpoolOptions.Stopped], once.
// An export calls it too, so that it never copies a stopped spool without
// its last line.
func (s *Spool) noteStop() {
	seq, at, err := s.rec.rec.failed()
	if err == nil || !s.own {
		return
	}
	s.stopped.Do(func() {
		if at.IsZero() {
			at = time.Now()
		}
		ev := Event{Seq: seq, T: at, Kind: KindError, Text: stopText(at, err, s.max)}
		if errors.Is(err, errSpoolFull) {
			// Past the bound by this line alone; a line that fails to
			// be written whole is left out of exports.
			if b, merr := json.Marshal(ev); merr == nil {
				s.src.Write(append(b, '\n'))
			}
		}
		if s.onStop != nil {
			s.onStop(ev)
		}
	})
}

// spoolStopPrefix begins the text of the event a spool of its own ends
// with (see [SpoolStopped]).
const spoolStopPrefix = "the export spool "

// stopText is what the event saying that the spool stopped at at, for err,
// says: when, why, and what keeps everything.
func stopText(at time.Time, err error, max int64) string {
	const later = stopLater + " (record with --record FILE to keep everything"
	if errors.Is(err, errSpoolFull) {
		return fmt.Sprintf("%sreached %s at %s%s, or raise --spool-max)", spoolStopPrefix, ByteSize(max), at.Format(time.TimeOnly), later)
	}
	return fmt.Sprintf("%sstopped at %s: %s%s)", spoolStopPrefix, at.Format(time.TimeOnly), writeCause(err), later)
}

// writeCause is what a failed write of the spool or of a record says: the
// system's reason and the folder, where the disk is full, without the
// file's long temporary name.
func writeCause(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "writing failed: " + pe.Err.Error() + " in " + filepath.Dir(pe.Path)
	}
	return err.Error()
}

// stopLater is the clause of [stopText] that says exports lack what
// follows; what comes after it says what keeps everything.
const stopLater = "; later events are not in exports"

// SpoolStopped reports whether ev is the event a spool of its own ends
// with when its bound or a failed write stops it.
func SpoolStopped(ev Event) bool {
	return ev.Kind == KindError && strings.HasPrefix(ev.Text, spoolStopPrefix)
}

// SpoolStoppedBrief is the text of ev, a [SpoolStopped] event, without
// what keeps everything (--record, --spool-max): when and why the spool
// stopped, and that exports lack what follows, for a status line of some
// 80 columns.
func SpoolStoppedBrief(ev Event) string {
	if head, _, ok := strings.Cut(ev.Text, stopLater); ok {
		return head + stopLater
	}
	return ev.Text
}

// Export writes the record so far to a new file in dir ("" is the current
// directory) named mcpwitness-YYYYMMDD-HHMMSS.jsonl (-2, -3… before
// .jsonl when that name is taken), and says where and how many lines it
// holds.
//
// The export is atomic: a temporary file in dir, synced, then given its
// name, so the name never shows a partial file, even after a crash, and an
// existing file is never replaced. A line being written right now is left
// for the next export. On failure nothing is left behind and the spool
// goes on. A spool that stopped taking events (its bound, a failed write)
// still exports every whole line written before, and
// [Exported.Stopped] says when it stopped and why.
func (s *Spool) Export(ctx context.Context, dir string) (Exported, error) {
	return s.export(ctx, dir, time.Now())
}

func (s *Spool) export(ctx context.Context, dir string, now time.Time) (Exported, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := "spool"
	if !s.own {
		name = "record " + s.src.Name()
	}
	what := "the session " + name
	s.noteStop()
	_, at, stopErr := s.rec.rec.failed()
	f := s.src
	st, err := f.Stat()
	if err != nil {
		return Exported{}, fmt.Errorf("reading %s: %w", what, err)
	}
	end, err := wholeLines(f, st.Size())
	if err != nil {
		return Exported{}, fmt.Errorf("reading %s: %w", what, err)
	}
	path, lines, err := exportLines(ctx, f, end, dir, now)
	if err != nil {
		return Exported{}, err
	}
	ex := Exported{Path: path, Lines: lines}
	if stopErr != nil {
		ex.Stopped = stoppedNote(name, at, stopErr, s.max)
	}
	return ex, nil
}

// stoppedNote is [Exported.Stopped] for what ("spool", or "record" and the
// record's name) stopped at at by err.
func stoppedNote(what string, at time.Time, err error, max int64) string {
	cause := writeCause(err)
	if errors.Is(err, errSpoolFull) {
		cause = "it reached its cap of " + ByteSize(max)
	}
	if at.IsZero() {
		return fmt.Sprintf("the %s stopped: %s", what, cause)
	}
	return fmt.Sprintf("the %s stopped at %s: %s", what, at.Format(time.TimeOnly), cause)
}

// Close closes the spool file (which removes it), or, for a spool that
// follows a record, stops reading the record and leaves it as it is.
// Close the log first: events written after Close are dropped.
func (s *Spool) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.own {
		s.src.Close()
		return nil
	}
	s.rec.f.Close()
	if s.linked == "" {
		return nil
	}
	if err := os.Remove(s.linked); err != nil {
		return fmt.Errorf("removing the session spool: %w", err)
	}
	return nil
}

// ByteSize writes n bytes the way a person reads them: 512 B, 64 KiB,
// 3.2 MiB.
func ByteSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	suffix := []string{"KiB", "MiB", "GiB", "TiB", "PiB"}[exp]
	if n%div == 0 {
		return fmt.Sprintf("%d %s", n/div, suffix)
	}
	return fmt.Sprintf("%.1f %s", float64(n)/float64(div), suffix)
}
