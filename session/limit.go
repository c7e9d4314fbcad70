package session

import (
	"fmt"
	"mcpwitness/record"
	"strings"
	"sync"
)

// DefaultMaxFrame is the largest frame (one stdio line, one HTTP body or one
// server-sent event) a session accepts when [Options].MaxFrame is 0.
const DefaultMaxFrame int64 = 64 << 20

// FrameTooLargeError is the error that ends a connection whose server sent a
// frame larger than the limit. What was read before it stays in the log.
type FrameTooLargeError struct {
	// What is "frame", "HTTP body" or "server-sent event".
	What string
	// Size is the frame's size when the server announced it (an HTTP
	// Content-Length), or 0 when only "more than Limit" is known.
	Size int64
	// Limit is the cap that was exceeded.
	Limit int64
}

func (e *FrameTooLargeError) Error() string {
	size := "larger than " + record.ByteSize(e.Limit)
	if e.Size > 0 {
		size = "of " + record.ByteSize(e.Size) + ", over the " + record.ByteSize(e.Limit) + " limit"
	}
	article := "a"
	if strings.HasPrefix(e.What, "HTTP") {
		article = "an"
	}
	return fmt.Sprintf("the server sent %s %s %s (--max-frame raises the limit); the connection was closed", article, e.What, size)
}

// frameLimit caps one frame and remembers the first time the cap ended the
// connection, so every later error can name that cause first.
type frameLimit struct {
	max int64
	log *record.Log

	mu  sync.Mutex
	err *FrameTooLargeError
}

func newFrameLimit(max int64, log *record.Log) *frameLimit {
	if max <= 0 {
		max = DefaultMaxFrame
	}
	return &frameLimit{max: max, log: log}
}

// exceeded records that a frame of what went over the limit (size if known)
// and returns the error that ends the connection. Only the first is logged.
func (f *frameLimit) exceeded(what string, size int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err != nil {
		return f.err
	}
	f.err = &FrameTooLargeError{What: what, Size: size, Limit: f.max}
	f.log.Append(record.Event{Kind: record.KindError, Dir: record.Recv, Text: f.err.Error()})
	return f.err
}

// cause returns the error that ended the connection, or nil.
func (f *frameLimit) cause() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		return nil
	}
	return f.err
}
