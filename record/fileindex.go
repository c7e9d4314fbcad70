package record

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rangeSize is the least number of bytes worth a worker of its own.
const rangeSize = 4 << 20

// index reads the file once, keeping only where each event's line starts
// and ends. Line 1 is read first; the rest is split into byte ranges read by
// workers in parallel (0 means one per CPU, for files large enough), each
// range taking the lines that begin in it.
func (f *File) index(size int64, workers int) error {
	body, err := f.indexHeader(size)
	if err != nil {
		return err
	}
	if workers <= 0 {
		workers = min(runtime.GOMAXPROCS(0), int((size-body)/rangeSize)+1)
	}
	end, err := f.join(f.scanParts(body, size, workers), body)
	if err != nil {
		return err
	}
	f.size = end
	f.meta.Name, f.meta.Events = f.name, len(f.starts)
	if from := cmp.Or(f.meta.Started, f.meta.First); !from.IsZero() && f.meta.Last.After(from) {
		f.meta.Span = f.meta.Last.Sub(from)
	}
	return nil
}

// indexHeader reads line 1, the session header, of a file of size bytes,
// and returns where the events after it begin.
func (f *File) indexHeader(size int64) (body int64, err error) {
	if size == 0 {
		return 0, errors.New("the file is empty: line 1 should be the session header")
	}
	lr := newLineReader(f.r, 0, size, f.maxLine)
	first, err := lr.next()
	if err != nil {
		return 0, fmt.Errorf("reading line 1: %w", err)
	}
	if first.tooLong {
		return 0, fmt.Errorf("line 1 is %d bytes, too long for a session header (is this an mcpwitness session file?)", first.n)
	}
	if err := f.readHeader(first.b, first.whole, first.n); err != nil {
		return 0, err
	}
	return first.n, nil
}

// scanParts splits the bytes from body to size into as many ranges as
// workers and scans them in parallel, one worker each.
func (f *File) scanParts(body, size int64, workers int) []part {
	parts := make([]part, workers)
	var wg sync.WaitGroup
	for k := range parts {
		lo := body + (size-body)*int64(k)/int64(workers)
		hi := body + (size-body)*int64(k+1)/int64(workers)
		wg.Go(func() { parts[k] = f.scan(lo, hi, size, lo == body) })
	}
	wg.Wait()
	return parts
}

// join puts the parts' indexes together in order, numbering their warnings
// by line, and returns where the last line read ends; the first part's
// error, if any, is the index's.
func (f *File) join(parts []part, body int64) (end int64, err error) {
	total := 0
	for _, p := range parts {
		total += len(p.starts)
	}
	f.starts, f.ends = make([]int64, 0, total), make([]int64, 0, total)
	line := 1 // lines before the current part
	end = body
	for _, p := range parts {
		if p.err != nil {
			return 0, p.err
		}
		f.starts = append(f.starts, p.starts...)
		f.ends = append(f.ends, p.ends...)
		f.joinNotes(p, line)
		if f.meta.Server == nil {
			f.meta.Server = p.server
		}
		if f.meta.First.IsZero() {
			f.meta.First = p.first
		}
		if !p.last.IsZero() {
			f.meta.Last = p.last
		}
		line += p.lines
		end = max(end, p.end)
	}
	return end, nil
}

// joinNotes adds the warnings and counts of part p, whose first line is
// the one after line, keeping at most maxWarnings warnings.
func (f *File) joinNotes(p part, line int) {
	for _, n := range p.notes {
		if len(f.warnings) == maxWarnings {
			f.dropped++
			continue
		}
		f.warnings = append(f.warnings, n.text(line+n.line))
	}
	f.dropped += p.dropped
	f.skipped += p.skipped
	f.cut += p.cut
}

// part is the index of the lines that start in one byte range.
type part struct {
	starts, ends []int64
	lines        int // lines that start in the range
	end          int64
	notes        []note
	dropped      int
	skipped      int
	cut          int64
	first, last  time.Time
	server       *ServerInfo
	err          error
}

// note is a warning about the line numbered line within its part; text
// words it given the line's number in the file.
type note struct {
	line int
	text func(line int) string
}

func (p *part) note(line int, text func(int) string) {
	if len(p.notes) < maxWarnings {
		p.notes = append(p.notes, note{line: line, text: text})
		return
	}
	p.dropped++
}

// scan indexes the lines that start in [lo, hi) of a file of size bytes. A
// range that does not start a line (atLine false) begins after its first
// newline.
func (f *File) scan(lo, hi, size int64, atLine bool) (p part) {
	p.end = lo
	if !atLine {
		var c [1]byte
		if _, err := f.r.ReadAt(c[:], lo-1); err != nil {
			p.err = fmt.Errorf("reading %s at byte %d: %w", f.name, lo-1, err)
			return p
		}
		atLine = c[0] == '\n'
	}
	lr := newLineReader(f.r, lo, size, f.maxLine)
	for skip := !atLine; lr.pos < hi; skip = false {
		l, err := lr.next()
		switch {
		case err != nil:
			p.err = fmt.Errorf("reading %s: %w", f.name, err)
			return p
		case l.n == 0:
			return p
		case !skip: // else the tail of a line of the part before
			p.lines++
			p.end = l.start + l.n
			p.add(p.lines, l, f.maxLine)
		}
	}
	return p
}

// add indexes one line, or says why it is left out.
func (p *part) add(line int, l rawLine, maxLine int) {
	switch {
	case l.tooLong:
		p.skipped++
		limit := fmt.Sprintf("%d bytes", maxLine)
		if maxLine%(1<<20) == 0 {
			limit = fmt.Sprintf("%d MiB", maxLine>>20)
		}
		p.note(line, func(n int) string {
			return fmt.Sprintf("line %d is %d bytes, longer than the %s a line may be; skipped", n, l.n, limit)
		})
		return
	case len(bytes.TrimSpace(l.b)) == 0:
		return
	}
	t, kind, err := indexEvent(l.b)
	switch {
	case err != nil && !l.whole:
		p.cut = l.n
		p.end = l.start
		p.note(line, func(n int) string {
			return fmt.Sprintf("the file ends in the middle of line %d: its last %d bytes were cut off (the recording stopped mid-write); read up to line %d",
				n, l.n, n-1)
		})
		return
	case err != nil:
		p.skipped++
		p.note(line, func(n int) string { return fmt.Sprintf("line %d: %v; skipped", n, err) })
		return
	}
	p.starts = append(p.starts, l.start)
	p.ends = append(p.ends, l.start+int64(len(l.b)))
	if p.server == nil && kind == KindConnect {
		if ev, err := decodeEvent(l.b); err == nil && ev.Server != nil {
			p.server = ev.Server
		}
	}
	if p.first.IsZero() {
		p.first = t
	}
	p.last = t
}

// rawLine is one line as a [lineReader] read it.
type rawLine struct {
	b       []byte // the line without its line ending; empty when tooLong
	start   int64  // offset of the line in the file
	n       int64  // bytes of the line, line ending included
	whole   bool   // the line ends in a newline
	tooLong bool   // the line is longer than the reader's limit
}

// lineReader reads the lines of a file from an offset, keeping at most
// limit bytes of any one line in memory.
type lineReader struct {
	br    *bufio.Reader
	pos   int64
	limit int
	long  []byte
}

func newLineReader(r io.ReaderAt, from, size int64, limit int) *lineReader {
	buf := int(min(256<<10, max(size-from, 16))) // small files get small buffers
	return &lineReader{br: bufio.NewReaderSize(io.NewSectionReader(r, from, size-from), buf), pos: from, limit: limit}
}

// next reads the next line; at the end of the file it returns one with n 0.
// The line's bytes are valid until the next call.
func (lr *lineReader) next() (rawLine, error) {
	l := rawLine{start: lr.pos}
	b, err := lr.br.ReadSlice('\n')
	l.n = int64(len(b))
	l.whole = err == nil
	if errors.Is(err, bufio.ErrBufferFull) {
		lr.long = append(lr.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = lr.br.ReadSlice('\n')
			l.n += int64(len(b))
			if !l.tooLong && len(lr.long)+len(b) > lr.limit {
				l.tooLong, lr.long = true, lr.long[:0]
			}
			if !l.tooLong {
				lr.long = append(lr.long, b...)
			}
		}
		b, l.whole = lr.long, err == nil
	}
	if l.n > int64(lr.limit) {
		l.tooLong, b = true, nil
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return l, err
	}
	lr.pos += l.n
	l.b = bytes.TrimRight(b, "\r\n")
	return l, nil
}

// readHeader checks line 1.
func (f *File) readHeader(b []byte, whole bool, n int64) error {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var probe struct {
		Format  *string          `json:"format"`
		Version *json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		if !whole {
			return fmt.Errorf("line 1 (the header) is cut off after %d bytes: the recording stopped before it was written", n)
		}
		return fmt.Errorf("line 1 is not a session header: %v (is this an mcpwitness session file?)", jsonError(b, err))
	}
	switch {
	case probe.Format == nil:
		return errors.New(`line 1 is not a session header: it has no "format" (is this an mcpwitness session file?)`)
	case *probe.Format != FormatName:
		return fmt.Errorf("line 1: format is %q, not %q: this is not an mcpwitness session file", *probe.Format, FormatName)
	case probe.Version == nil:
		return errors.New(`line 1: the header has no "version"`)
	}
	major, err := majorVersion(*probe.Version)
	if err != nil {
		return fmt.Errorf("line 1: %v", err)
	}
	if major > FormatVersion {
		return fmt.Errorf("session file is format version %d; this mcpwitness reads version %d — upgrade mcpwitness", major, FormatVersion)
	}
	if major < 1 {
		return fmt.Errorf("line 1: format version %d is not one this mcpwitness reads (it reads version %d)", major, FormatVersion)
	}
	var h struct {
		Header
		Version json.RawMessage `json:"version"`
	}
	if err := json.Unmarshal(b, &h); err != nil {
		return fmt.Errorf("line 1: the header cannot be read: %v", err)
	}
	f.header = h.Header
	f.header.Version = major
	f.meta.Tool, f.meta.Target, f.meta.Started = h.Tool, h.Target, h.Started
	return nil
}

// majorVersion reads a version number; a minor part (1.2) is allowed.
func majorVersion(raw json.RawMessage) (int, error) {
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil || v < 0 || v >= 1<<31 {
		return 0, fmt.Errorf("the version is %s, not a version number", truncateRaw(raw))
	}
	return int(v), nil
}

// KnownKind reports whether k is one of the kinds of format 1, whose fields
// this version reads.
func KnownKind(k Kind) bool {
	switch k {
	case KindConnect, KindWire, KindStderr, KindListRequest, KindPage, KindWalk, KindCall,
		KindVerdict, KindProgress, KindNotification, KindServerCall, KindError, KindClosed, KindInterrupted:
		return true
	}
	return false
}

// indexEvent checks that b is an event: a JSON object with a time ("t")
// and a kind. It is all that opening a file decodes.
func indexEvent(b []byte) (time.Time, Kind, error) {
	var core struct {
		T    time.Time `json:"t"`
		Kind Kind      `json:"kind"`
	}
	if err := json.Unmarshal(b, &core); err != nil {
		return time.Time{}, "", fmt.Errorf("not an event: %v", jsonError(b, err))
	}
	switch {
	case core.Kind == "":
		return time.Time{}, "", errors.New(`the event has no "kind"`)
	case core.T.IsZero():
		return time.Time{}, "", fmt.Errorf(`the %s event has no time ("t")`, kindName(core.Kind))
	}
	return core.T, core.Kind, nil
}

// decodeEvent reads one event line. A line [indexEvent] accepts always
// decodes: when its other fields do not fit [Event] (a kind this version
// does not know, a newer minor version, damage), the event keeps what is
// certain — Seq, T and Kind.
func decodeEvent(b []byte) (Event, error) {
	var ev Event
	if err := json.Unmarshal(b, &ev); err == nil && ev.Kind != "" && !ev.T.IsZero() {
		untrim(&ev)
		return ev, nil
	}
	t, kind, err := indexEvent(b)
	if err != nil {
		return Event{}, err
	}
	var seq struct {
		Seq int64 `json:"seq"`
	}
	_ = json.Unmarshal(b, &seq)
	return Event{Seq: seq.Seq, T: t, Kind: kind}, nil
}

func kindName(k Kind) string {
	if k == "" {
		return "an"
	}
	return strconv.Quote(string(k))
}

// jsonError words a decoding error for a user; b is what was decoded.
func jsonError(b []byte, err error) string {
	if !json.Valid(b) {
		return "not JSON (" + truncateRaw(b) + ")"
	}
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) && ute.Field == "" {
		return "a JSON " + ute.Value + ", not an object"
	}
	return err.Error()
}

// truncateRaw shows the start of a bad line in a message.
func truncateRaw(b []byte) string {
	const n = 40
	s := strings.ToValidUTF8(string(b), "?")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return strconv.Quote(s)
}
