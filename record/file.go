package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"time"
)

// MaxLine is the longest line [OpenFile] reads; a longer line is skipped
// with a warning. Memory while indexing is bounded by it, never by the file.
const MaxLine = 64 << 20

// maxWarnings bounds how many warnings a [File] keeps; the rest are counted.
const maxWarnings = 50

// File is a session file opened for reading: its header, and an index of
// where each event's line starts and ends. Events are read from disk when
// asked for, so a file of any size opens with memory proportional to its
// number of lines. A File is safe for concurrent use.
type File struct {
	r       io.ReaderAt
	closer  io.Closer
	name    string
	size    int64 // bytes covered by the index (whole lines)
	maxLine int   // the longest line read; MaxLine

	header Header
	starts []int64 // byte offset where event i's line starts
	ends   []int64 // byte offset just past event i's line, newline excluded

	warnings []string
	dropped  int // warnings not kept
	skipped  int
	cut      int64
	meta     ReplayInfo
}

// ReplayInfo is what a replay needs to know before its first event: when
// and what was recorded, the server, and the time span of the events.
type ReplayInfo struct {
	Name    string     // the file's path or name
	Tool    string     // the program that recorded it, e.g. "mcpwitness v1.2.0"
	Target  TargetInfo // the target, redacted as recorded
	Started time.Time  // when recording started (the header's "started")
	// Server is what the first connect event told; nil when the file has none.
	Server *ServerInfo
	Events int       // the number of events, as [File.Len]
	First  time.Time // the time of the first event (zero when none)
	Last   time.Time // the time of the last event (zero when none)
	// Span is the time from Started (or First, when Started is unset) to Last.
	Span time.Duration
}

// OpenFile opens the session file at path and indexes its lines in one
// streaming pass. It fails when line 1 is not a format 1 header, naming
// line 1 and what is wrong. Everything else is forgiven, with a warning: a
// line that is not JSON or not an event is skipped, and a last line cut off
// mid-write (a crash) is left out. See [File.Warnings].
func OpenFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("opening session file: %w", err)
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening session file: %w", err)
	}
	if st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("%s is a directory, not a session file", path)
	}
	sf, err := NewFile(f, st.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	sf.closer = f
	return sf, nil
}

// NewFile indexes a session file of size bytes read from r, as [OpenFile]
// does; name labels it in messages. Closing the File does not close r.
func NewFile(r io.ReaderAt, size int64, name string) (*File, error) {
	sf := &File{r: r, name: name, maxLine: MaxLine}
	if err := sf.index(size, 0); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return sf, nil
}

// Close closes the underlying file.
func (f *File) Close() error {
	if f.closer == nil {
		return nil
	}
	return f.closer.Close()
}

// Name returns the path or name the file was opened with.
func (f *File) Name() string { return f.name }

// Header returns the file's header (line 1).
func (f *File) Header() Header { return f.header }

// Len returns the number of events: the lines after the header that could be
// read as events.
func (f *File) Len() int { return len(f.starts) }

// Skipped returns the number of lines that were not events and were left out.
func (f *File) Skipped() int { return f.skipped }

// Cut returns how many bytes at the end of the file were left out because
// they did not end a whole line.
func (f *File) Cut() int64 { return f.cut }

// Warnings returns what was forgiven while opening the file, one sentence
// each, naming line numbers.
func (f *File) Warnings() []string {
	w := append([]string(nil), f.warnings...)
	if f.dropped > 0 {
		w = append(w, fmt.Sprintf("… and %d more warnings", f.dropped))
	}
	return w
}

// Meta returns what a replay needs before its first event. It costs nothing:
// it was gathered while indexing.
func (f *File) Meta() ReplayInfo { return f.meta }

// RawLine returns line of event i exactly as it is in the file. Fields this
// version does not know, and events of kinds it does not know, are there.
func (f *File) RawLine(i int) (json.RawMessage, error) {
	if i < 0 || i >= len(f.starts) {
		return nil, fmt.Errorf("event %d: out of range (the file has %d events)", i, len(f.starts))
	}
	b := make([]byte, f.ends[i]-f.starts[i])
	if n, err := f.r.ReadAt(b, f.starts[i]); n < len(b) {
		return nil, fmt.Errorf("reading event %d of %s: %w", i, f.name, err)
	}
	return bytes.TrimRight(b, "\r"), nil
}

// Event reads event i (0-based) from the file. It succeeds for every i
// below [File.Len] unless the file changed since it was opened. An event
// whose fields do not fit [Event] — a kind this version does not know, or
// a known kind from a newer minor version whose field changed shape — has
// only Seq, T and Kind set; [File.RawLine] holds the rest.
func (f *File) Event(i int) (Event, error) {
	b, err := f.RawLine(i)
	if err != nil {
		return Event{}, err
	}
	ev, err := decodeEvent(b)
	if err != nil {
		// The line was read when the file was opened; it changed since.
		return Event{}, fmt.Errorf("event %d of %s: %w (did the file change since it was opened?)", i, f.name, err)
	}
	if ev.Kind == KindPage && ev.Page != nil && ev.Page.Frame > 0 && ev.Items == nil {
		if err := f.pageItems(i, &ev); err != nil {
			return Event{}, fmt.Errorf("event %d of %s: %w", i, f.name, err)
		}
	}
	return ev, nil
}

// Events returns the events in order, read from the file one by one. It
// stops after the first error it yields.
func (f *File) Events() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for i := range f.starts {
			ev, err := f.Event(i)
			if !yield(ev, err) || err != nil {
				return
			}
		}
	}
}
