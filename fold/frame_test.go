package fold

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// decodedNote is the note made by decoding the frame with encoding/json:
// what frameNote must give without decoding.
func decodedNote(raw json.RawMessage) string {
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

var noteCases = []struct{ frame, note string }{
	{`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"name":"not this"}}}`, "add"},
	{`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"c1"}}`, "cursor c1"},
	{`{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"a","nextCursor":"x"}],"nextCursor":"c2"}}`, "next c2"},
	{`{"jsonrpc":"2.0","id":3,"result":{"content":[],"isError":true}}`, "isError"},
	{`{"jsonrpc":"2.0","id":4,"error":{"code":-32602,"message":"bad \"cursor\""}}`, `error -32602: bad "cursor"`},
	{`{"jsonrpc":"2.0","id":4,"error":{}}`, "error 0: "},
	{`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}`, "info"},
	{`{"jsonrpc":"2.0","id":5,"result":{"tools":[]}}`, ""},
	{`{"jsonrpc":"2.0","id":5,"result":null,"params":null,"error":null}`, ""},
	{` { "PARAMS" : { "Name" : "caseless" } } `, "caseless"},
	{`{"params":{"n\u0061me":"escaped \u00e3"}}`, "escaped ã"},
	{`{"params":{"name":"first"},"params":{"name":"last"}}`, "last"},
	{`{"params":{"name":"kept"},"params":{"name":null}}`, "kept"},
	{`{"error":{"code":1},"error":{"message":"merged"}}`, "error 1: merged"},
	{`{"error":{"code":1},"error":null}`, ""},
	{`{"error":{"code":1},"error":null,"error":{"message":"fresh"}}`, "error 0: fresh"},
	// Values of another type: decoding fails, no note.
	{`{"params":{"name":7}}`, ""},
	{`{"params":"add"}`, ""},
	{`{"result":{"isError":"true"}}`, ""},
	{`{"error":{"code":1.5,"message":"m"}}`, ""},
	{`{"error":{"code":"1","message":"m"}}`, ""},
	{`{"error":"boom"}`, ""},
	{`{"params":{"name":"a"},"result":{"isError":1}}`, ""},
	// Not an object, or not JSON.
	{`[{"params":{"name":"batch"}}]`, ""},
	{`null`, ""},
	{`"params"`, ""},
	{`{"params":{"name":"cut"}`, ""},
	{`{"params":{"name":"a"}} trailing`, ""},
	{`{"params":{"name":"a"},"x":tru}`, ""},
	{`not json`, ""},
	{``, ""},
}

// A frame's note is what decoding it gives, read without decoding it: for
// calls, cursors, pages, errors, log levels, names in any case or escaped,
// duplicates, nulls, values of the wrong type and text that is not JSON.
func TestFrameNoteReadsAsDecoding(t *testing.T) {
	for _, c := range noteCases {
		got := frameNote(json.RawMessage(c.frame))
		if got != c.note {
			t.Errorf("frameNote(%s) = %q, want %q", c.frame, got, c.note)
		}
		if want := decodedNote(json.RawMessage(c.frame)); got != want {
			t.Errorf("frameNote(%s) = %q, decoding gives %q", c.frame, got, want)
		}
	}
}

func FuzzFrameNote(f *testing.F) {
	for _, c := range noteCases {
		f.Add([]byte(c.frame))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got := frameNote(b) // whatever b is: no panic, no loop
		if !json.Valid(b) {
			// The fold's frames are valid JSON (the tap and the session
			// file's reader check them); the scan promises "" only for
			// what it reads, as TestFrameNoteReadsAsDecoding shows.
			return
		}
		if want := decodedNote(b); got != want {
			t.Errorf("frameNote(%q) = %q, decoding gives %q", b, got, want)
		}
	})
}

// pageFrame is the answer to a tools/list request: n tools and a cursor.
func pageFrame(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"jsonrpc":"2.0","id":7,"result":{"tools":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","description":"Tool number %d, which adds two numbers.","inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}}`, i, i)
	}
	b.WriteString(`],"nextCursor":"page-2"}}`)
	return json.RawMessage(b.String())
}

// BenchmarkFrameNote is the note of one 100-tool page, the frame the UI
// notes most during a walk.
func BenchmarkFrameNote(b *testing.B) {
	page := pageFrame(100)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if frameNote(page) != "next page-2" {
			b.Fatal("wrong note")
		}
	}
}

// BenchmarkFrameNoteDecoded is the same note made by decoding the frame.
func BenchmarkFrameNoteDecoded(b *testing.B) {
	page := pageFrame(100)
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if decodedNote(page) != "next page-2" {
			b.Fatal("wrong note")
		}
	}
}
