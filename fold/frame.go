package fold

import (
	"encoding/json"
	"fmt"
	"time"

	"mcpwitness/session"
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
}

func (s *State) applyWire(ev session.Event) {
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
	if ev.Dir == session.Recv {
		s.lastAnswer = ev.T
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
// sent or named, a level, an error or isError.
func frameNote(raw json.RawMessage) string {
	var f struct {
		Params struct {
			Name   string `json:"name"`
			Cursor string `json:"cursor"`
			Level  string `json:"level"`
		} `json:"params"`
		Result struct {
			IsError    bool   `json:"isError"`
			NextCursor string `json:"nextCursor"`
		} `json:"result"`
		Error *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &f) != nil {
		return ""
	}
	switch {
	case f.Error != nil:
		return fmt.Sprintf("error %d: %s", f.Error.Code, f.Error.Message)
	case f.Result.IsError:
		return "isError"
	case f.Params.Name != "":
		return f.Params.Name
	case f.Params.Cursor != "":
		return "cursor " + f.Params.Cursor
	case f.Result.NextCursor != "":
		return "next " + f.Result.NextCursor
	case f.Params.Level != "":
		return f.Params.Level
	}
	return ""
}
