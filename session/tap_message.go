package session

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"

	"mcpwitness/jsonscan"
)

// envelope is the part of a JSON-RPC frame the tap needs.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// levelDeep marks a recorded frame that was passed on cut.
const levelDeep = "deep"

// message is one JSON-RPC message as the tap read it.
type message struct {
	view     json.RawMessage // the message, cut if it was too deep
	env      envelope
	isObject bool // view is a JSON object whose fields have the types envelope wants
}

// readBatch reads the members of a batch (valid JSON), each a slice of
// view, reporting whether view is one. The slice is declared here, not by
// the caller, so that a frame that is not a batch allocates none.
func readBatch(view []byte) ([]json.RawMessage, bool) {
	var members []json.RawMessage
	ok := jsonscan.Elements(view, func(m []byte) bool {
		members = append(members, m)
		return true
	})
	return members, ok
}

// readMessage reads one message (valid JSON) as decoding it into an
// envelope would, with no copy: its members are slices of view.
func readMessage(view json.RawMessage) message {
	m := message{view: view}
	m.isObject = m.env.read(view)
	return m
}

// read fills e from the JSON text b (valid JSON) as json.Unmarshal into e
// would: the members of an object matched to e's fields by name (exactly,
// else without regard to case), the last of duplicates winning, a null
// leaving a string as it was. It reports false where decoding would fail
// (b is neither an object nor null, or jsonrpc or method is neither a
// string nor null), having read all it could, as decoding does.
func (e *envelope) read(b []byte) bool {
	if string(bytes.TrimSpace(b)) == "null" {
		return true // decodes, into nothing
	}
	typed := true
	object := jsonscan.Members(b, func(rawKey, val []byte) bool {
		switch jsonscan.Field(rawKey, "jsonrpc", "id", "method", "params", "result", "error") {
		case "jsonrpc":
			typed = jsonscan.StringInto(val, &e.JSONRPC) && typed
		case "method":
			typed = jsonscan.StringInto(val, &e.Method) && typed
		case "id":
			e.ID = val
		case "params":
			e.Params = val
		case "result":
			e.Result = val
		case "error":
			e.Error = val
		}
		return true
	})
	return object && typed
}

// emptyPage is a JSON-RPC answer with id rawID whose result is a list page
// with no items in the field items.
func emptyPage(rawID json.RawMessage, items string) []byte {
	b := make([]byte, 0, 48+len(rawID)+len(items))
	b = append(b, `{"jsonrpc":"2.0","id":`...)
	b = append(b, rawID...)
	b = append(b, `,"result":{"`...)
	b = append(b, items...)
	return append(b, `":[]}}`...)
}

// strayText says why an answer from the server was ignored.
func strayText(rawID json.RawMessage, isObject bool) string {
	var what string
	switch {
	case !isObject:
		what = "a frame that is not a JSON-RPC message"
	case len(rawID) == 0:
		what = "an answer with no id"
	case string(bytes.TrimSpace(rawID)) == "null":
		what = `an answer with "id": null`
	default:
		what = "an answer with id " + string(rawID)
	}
	return "ignored " + what + ": it matches no request in flight, so it was not passed to the SDK"
}

// canonicalID is the id of a message as the tap keys it: "" for none or
// null, an integral number in its shortest form (1.0 is 1, 1.5 stays 1.5),
// anything else as it was written.
func canonicalID(raw json.RawMessage) string {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || string(b) == "null" {
		return ""
	}
	if b[0] != '"' {
		if f, err := strconv.ParseFloat(string(b), 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10)
		}
	}
	return string(b)
}
