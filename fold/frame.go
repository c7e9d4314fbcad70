package fold

import (
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"mcpwitness/jsonscan"
	"mcpwitness/record"
)

// Frame is one JSON-RPC frame in or out.
type Frame struct {
	T       time.Time
	Dir     string
	Method  string
	ID      string
	Size    int
	Frame   json.RawMessage
	Text    string // a frame that was not JSON
	Latency time.Duration
	// Note says what the frame is about in a few words: a tool's name, a
	// cursor, an error; as the server sent it (not cleaned).
	Note string
	// Src is the 1-based number in the session file of the event holding
	// the frame when its bytes are not kept (Frame and Text empty), else 0.
	Src int
	// HTTP is the exchange that carried the frame on Streamable HTTP: the
	// POST of a sent frame, the answer to that POST for the frame that
	// answers it (see [State.applyHTTP]); nil on other transports.
	HTTP *record.HTTPInfo
}

func (s *State) applyWire(ev record.Event) {
	f := Frame{T: ev.T, Dir: ev.Dir, Method: ev.Method, ID: ev.ID, Size: ev.Size, Frame: ev.Frame}
	if len(ev.Frame) == 0 {
		f.Text = ev.Text
	} else if ev.LatencyMs > 0 {
		f.Latency = time.Duration(ev.LatencyMs * float64(time.Millisecond))
	}
	if f.Size == 0 {
		f.Size = max(len(ev.Frame), len(ev.Text))
	}
	f.Note = frameNote(ev.Frame)
	if s.lean && s.src > 0 {
		f.Frame, f.Text, f.Src = nil, "", s.src
	}
	if ev.Dir == record.Recv {
		s.lastAnswer = ev.T
		f.HTTP = s.exchangeOf(f.ID, f.Method)
	}
	if s.wire.Len() == MaxFrames {
		s.wireBytes -= frameBytes(s.wire.At(0))
	}
	s.wire.push(&f)
	s.wireBytes += frameBytes(&f)
	s.made.frames += frameWeight + frameBytes(&f)
	for s.wireBytes > MaxFrameBytes && s.wire.Len() > 1 {
		s.wireBytes -= frameBytes(s.wire.At(0))
		s.wire.drop()
	}
}

func frameBytes(f *Frame) int { return len(f.Frame) + len(f.Text) }

// frameNote reads what a frame is about: the tool called, the cursor
// sent or named, a level, an error or isError. It reads only the members
// that say so (params.name, .cursor, .level; result.isError, .nextCursor;
// error.code, .message) and skips the rest (a page's items) without
// decoding it: the same note as decoding the frame into those fields gives,
// "" for a frame that would not decode so, or is not valid JSON.
func frameNote(raw json.RawMessage) string {
	var f noteFields
	if len(raw) == 0 || !f.read(raw) {
		return ""
	}
	switch {
	case f.hasError:
		return fmt.Sprintf("error %d: %s", f.code, f.message)
	case f.isError:
		return "isError"
	case f.name != "":
		return f.name
	case f.cursor != "":
		return "cursor " + f.cursor
	case f.nextCursor != "":
		return "next " + f.nextCursor
	case f.level != "":
		return f.level
	}
	return ""
}

// noteFields are the members of a frame that its note is made of.
type noteFields struct {
	name, cursor, level string // params
	isError             bool   // result
	nextCursor          string // result
	hasError            bool   // an error member that is not null
	code                int
	message             string
}

// read fills f from the frame raw as decoding raw into the fields would:
// members in order, the last of duplicates winning, a null leaving a field
// as it was (an error member of null clearing it), names matched without
// regard to case. It reports false where decoding would fail: raw is not an
// object, a field holds a value of another type, or the text breaks off.
// The values it skips are not checked (frames reach the fold valid: the tap
// and the session file's reader check them), but a frame cut short is seen.
func (f *noteFields) read(raw []byte) bool {
	return jsonscan.Members(raw, func(rawKey, val []byte) bool {
		switch jsonscan.Field(rawKey, "params", "result", "error") {
		case "params":
			return isNull(val) || jsonscan.Members(val, func(k, v []byte) bool {
				switch jsonscan.Field(k, "name", "cursor", "level") {
				case "name":
					return jsonscan.StringInto(v, &f.name)
				case "cursor":
					return jsonscan.StringInto(v, &f.cursor)
				case "level":
					return jsonscan.StringInto(v, &f.level)
				}
				return true
			})
		case "result":
			return isNull(val) || jsonscan.Members(val, func(k, v []byte) bool {
				switch jsonscan.Field(k, "isError", "nextCursor") {
				case "isError":
					return readNoteBool(v, &f.isError)
				case "nextCursor":
					return jsonscan.StringInto(v, &f.nextCursor)
				}
				return true
			})
		case "error":
			if isNull(val) {
				f.hasError, f.code, f.message = false, 0, ""
				return true
			}
			f.hasError = true
			return jsonscan.Members(val, func(k, v []byte) bool {
				switch jsonscan.Field(k, "code", "message") {
				case "code":
					return readNoteInt(v, &f.code)
				case "message":
					return jsonscan.StringInto(v, &f.message)
				}
				return true
			})
		}
		return true
	})
}

func isNull(v []byte) bool { return string(v) == "null" }

func readNoteBool(v []byte, dst *bool) bool {
	switch string(v) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	case "null":
	default:
		return false
	}
	return true
}

func readNoteInt(v []byte, dst *int) bool {
	if isNull(v) {
		return true
	}
	n, err := strconv.ParseInt(string(v), 10, 0)
	if err != nil {
		return false
	}
	*dst = int(n)
	return true
}
