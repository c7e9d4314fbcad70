// Package tooldef reads a tool definition as a server listed it: the one
// parser of the tools/list item, used by the checks, the session, the fold
// and the --json documents.
//
// It sits at the bottom of the module and imports only [jsonscan]. It
// reads what the fields say and keeps the raw members; judging them (is
// the name well formed, does the schema compile, is a plain call refused)
// is the checks' work.
package tooldef

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"mcpwitness/jsonscan"
)

// ErrNotObject is the error of [Parse] for a definition that is not a JSON
// object: nothing in it can be read.
var ErrNotObject = errors.New("the tool definition is not a JSON object")

// Definition is a tool definition as the server sent it. The raw members
// are kept as sent (nil when missing); the string members and the hints
// are read from them where they have the right type.
type Definition struct {
	// Raw is the whole definition.
	Raw json.RawMessage
	// Name, Title and Description are the members of those names; "" when
	// missing or not strings.
	Name, Title, Description string
	// InputSchema, OutputSchema, Annotations, Execution and Meta (_meta)
	// are the raw members.
	InputSchema, OutputSchema json.RawMessage
	Annotations, Execution    json.RawMessage
	Meta                      json.RawMessage
	// TaskSupport is execution.taskSupport when it is a string.
	TaskSupport string
	// Hints are what annotations declare.
	Hints Hints
}

// Hints are a tool's annotations. Destructive and OpenWorld are true only
// when declared true: the specification's defaults are for clients to
// apply, and mcpwitness shows what was declared.
type Hints struct {
	// Title is annotations.title.
	Title                 string
	ReadOnly, Destructive bool
	Idempotent, OpenWorld bool
}

// HasOutputSchema reports whether the definition declares an outputSchema
// (a member that is present and not null).
func (d *Definition) HasOutputSchema() bool { return !Absent(d.OutputSchema) }

// Parse reads raw, a tool definition as listed. For a definition that is
// not a JSON object it returns [ErrNotObject] and a Definition holding only
// Raw.
//
// Nothing is copied: the raw members are slices of raw, and a name, title
// or description written without escapes shares raw's bytes. raw must not
// change while the Definition, or a string read from it, is in use (the
// session's frames and a session file's lines never change once read). For a name, title or description that is not a string it returns an
// error naming the member, and a Definition read as far as it could be.
func Parse(raw json.RawMessage) (Definition, error) {
	if !jsonscan.Valid(raw) {
		return Definition{Raw: raw}, ErrNotObject
	}
	return ParseValid(raw)
}

// ParseValid is [Parse] for raw known to be valid JSON (an item of a list
// page read out of a validated frame, or of a session file's line): it
// does not validate raw again. On text that is not valid JSON it neither
// panics nor loops, but what it reads is unspecified.
func ParseValid(raw json.RawMessage) (Definition, error) {
	d := Definition{Raw: raw}
	var s stringMembers
	if !d.readMembers(&s) {
		return d, ErrNotObject
	}
	err := s.readInto(&d)
	d.readHints()
	d.readTaskSupport()
	return d, err
}

// stringMembers are the members [Parse] reads as strings, kept raw until
// read.
type stringMembers struct {
	name, title, description json.RawMessage
}

// set keeps val, the value of member, in s or in d's raw members; other
// members are ignored.
func (s *stringMembers) set(d *Definition, member, val []byte) {
	switch string(member) {
	case "name":
		s.name = val
	case "title":
		s.title = val
	case "description":
		s.description = val
	case "inputSchema":
		d.InputSchema = val
	case "outputSchema":
		d.OutputSchema = val
	case "annotations":
		d.Annotations = val
	case "execution":
		d.Execution = val
	case "_meta":
		d.Meta = val
	}
}

// readMembers reads the members of d.Raw into d and s, scanning without a
// copy where it can; it reports false when d.Raw is not a JSON object,
// leaving d read as far as the scan went.
func (d *Definition) readMembers(s *stringMembers) bool {
	raw := d.Raw
	if members(raw, func(member, val []byte) { s.set(d, member, val) }) {
		return true
	}
	// Not an object, or a member name with an escape: decode it.
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return false
	}
	*s, *d = stringMembers{}, Definition{Raw: raw}
	for k, v := range m {
		s.set(d, []byte(k), v)
	}
	return true
}

// readInto reads the name, title and description into d. The error is
// the first member that is not a string; the others are read regardless.
func (s *stringMembers) readInto(d *Definition) error {
	var bad error
	read := func(member string, raw json.RawMessage) string {
		v, err := readString(raw)
		if err != nil && bad == nil {
			bad = fmt.Errorf("the tool definition's %s is %s, not a string", member, err)
		}
		return v
	}
	d.Name, d.Title, d.Description = read("name", s.name), read("title", s.title), read("description", s.description)
	return bad
}

// readHints reads d.Hints from d.Annotations; annotations that cannot be
// read leave them zero.
func (d *Definition) readHints() {
	if Absent(d.Annotations) {
		return
	}
	var ann struct {
		Title       string `json:"title"`
		ReadOnly    bool   `json:"readOnlyHint"`
		Destructive *bool  `json:"destructiveHint"`
		Idempotent  bool   `json:"idempotentHint"`
		OpenWorld   *bool  `json:"openWorldHint"`
	}
	if json.Unmarshal(d.Annotations, &ann) == nil {
		d.Hints = Hints{Title: ann.Title, ReadOnly: ann.ReadOnly, Idempotent: ann.Idempotent,
			Destructive: ann.Destructive != nil && *ann.Destructive,
			OpenWorld:   ann.OpenWorld != nil && *ann.OpenWorld}
	}
}

// readTaskSupport reads d.TaskSupport from d.Execution; an execution that
// cannot be read leaves it "".
func (d *Definition) readTaskSupport() {
	if Absent(d.Execution) {
		return
	}
	var ex struct {
		TaskSupport string `json:"taskSupport"`
	}
	if json.Unmarshal(d.Execution, &ex) == nil {
		d.TaskSupport = ex.TaskSupport
	}
}

// readString reads a JSON string; a missing member or null is "".
// Anything else is an error saying what the member is instead.
func readString(raw json.RawMessage) (string, error) {
	if Absent(raw) {
		return "", nil
	}
	if s, ok := jsonscan.String(bytes.TrimSpace(raw)); ok {
		return s, nil
	}
	return "", errors.New(kind(raw))
}

// kind names the JSON value raw holds, with its article: "a number", …
func kind(raw json.RawMessage) string {
	switch bytes.TrimSpace(raw)[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	}
	return "a number"
}

// Absent reports whether a raw member is missing or JSON null.
func Absent(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) == 0 || string(raw) == "null"
}
