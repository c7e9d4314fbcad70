package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"mcpwitness/record"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

const (
	// stderrTail is how many of the child's last stderr lines an error quotes.
	stderrTail = 8
	// stderrQuote bounds one stderr line as an error quotes it.
	stderrQuote = 512
	// stderrLineMax bounds one stderr line as its event holds it; the rest
	// of the line is read and dropped.
	stderrLineMax = 64 << 10
)

// causeLine matches a stderr line that says what went wrong: Go's
// "panic: …" and "fatal error: …", Node's "Error: Cannot find module …",
// Rust's "panicked at", Python's "Traceback" and "ValueError: …", Java's
// "Exception in thread …".
var causeLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i:(^|[^a-z])(error|panic|panicked|fatal|exception|traceback)([^a-z]|$))|[a-z](Error|Exception)\b`)
})

// errorLine matches a line that is itself the error, not a line that merely
// names one: Node's and Python's "TypeError: fetch failed" and
// "Error [ERR_MODULE_NOT_FOUND]: …" at the start of the line, Go's "panic:"
// and "fatal error:", Python's "Traceback (", Java's "Exception in thread",
// Rust's "panicked at". Node prints the source line that threw before it
// ("const err = new Error(message);", "Error.captureStackTrace(err);") and
// a caret line; causeLine matches that source line too.
var errorLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:Uncaught\s+)?(?:[A-Za-z_$][\w$.]*)?(?:Error|Exception)(?:\s*\[[^\]]*\])?:(?:\s|$)|^\s*(?:panic|fatal error):|^Traceback \(|^Exception in thread|panicked at`)
})

// stderrLog keeps what an error quotes of a server's stderr: the line that
// says what went wrong (the first errorLine, else the first causeLine), and
// the last lines. It holds a bounded amount whatever the server writes.
type stderrLog struct {
	mu    sync.Mutex
	first string // the first line matching causeLine
	at    int    // its line number, from 1
	// named and namedAt are the first line matching errorLine and its
	// line number: quoted before first when there is one.
	named   string
	namedAt int
	lines   []string
	n       int // lines seen
}

// add records one line.
func (l *stderrLog) add(line string) {
	if len(line) > stderrQuote {
		line = cutUTF8(line, stderrQuote) + "…"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n++
	if l.named == "" && errorLine().MatchString(line) {
		l.named, l.namedAt = line, l.n
	}
	if l.first == "" && causeLine().MatchString(line) {
		l.first, l.at = line, l.n
	}
	l.lines = append(l.lines, line)
	if len(l.lines) > stderrTail {
		l.lines = l.lines[len(l.lines)-stderrTail:]
	}
}

// text quotes the stderr for an error, or returns "": the first line that
// says what went wrong when the tail no longer holds it, then the tail.
func (l *stderrLog) text() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.lines) == 0 {
		return ""
	}
	tailFrom := l.n - len(l.lines) + 1
	first, at := l.first, l.at
	if l.named != "" {
		first, at = l.named, l.namedAt
	}
	if first == "" || at >= tailFrom {
		return "its stderr ends with:\n    " + strings.Join(l.lines, "\n    ")
	}
	quoted := []string{first}
	if skipped := tailFrom - at - 1; skipped > 0 {
		more := "lines"
		if skipped == 1 {
			more = "line"
		}
		quoted = append(quoted, fmt.Sprintf("… (%d more %s)", skipped, more))
	}
	quoted = append(quoted, l.lines...)
	return "its stderr says:\n    " + strings.Join(quoted, "\n    ")
}

// readStderr reads r line by line until it ends, never stopping early: a
// server writing to a closed stderr dies of it. Each line becomes an event,
// cut to stderrLineMax with a marker saying how long it was.
func readStderr(r io.Reader, log *record.Log, tail *stderrLog) {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	var size int64
	for {
		chunk, err := br.ReadSlice('\n')
		size += int64(len(chunk))
		if room := stderrLineMax - len(line); room > 0 {
			line = append(line, chunk[:min(room, len(chunk))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if size > 0 {
			text := strings.TrimRight(string(line), "\r\n")
			if err == nil {
				size-- // the newline
			}
			if size > stderrLineMax {
				text = cutUTF8(text, stderrLineMax) + fmt.Sprintf("… [truncated: %s line]", record.ByteSize(size))
			}
			tail.add(text)
			log.Append(record.Event{Kind: record.KindStderr, Text: text})
		}
		line, size = line[:0], 0
		if err != nil {
			return
		}
	}
}

// cutUTF8 returns s cut to at most n bytes, not inside a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
