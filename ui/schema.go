package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mcpwitness/sanitize"
)

// prop is one property of an object schema, in the order the schema
// lists them.
type prop struct {
	Name     string
	Schema   json.RawMessage
	Required bool
}

// schemaInfo is the part of a JSON Schema the editor reads.
type schemaInfo struct {
	Type        json.RawMessage   `json:"type"`
	Enum        []json.RawMessage `json:"enum"`
	Const       json.RawMessage   `json:"const"`
	Default     json.RawMessage   `json:"default"`
	Description string            `json:"description"`
	Required    []string          `json:"required"`
	Properties  json.RawMessage   `json:"properties"`
	Items       json.RawMessage   `json:"items"`
	AnyOf       json.RawMessage   `json:"anyOf"`
	OneOf       json.RawMessage   `json:"oneOf"`
	AllOf       json.RawMessage   `json:"allOf"`
	Ref         string            `json:"$ref"`
}

func readSchema(raw json.RawMessage) schemaInfo {
	var s schemaInfo
	_ = json.Unmarshal(raw, &s)
	return s
}

// types returns the schema's type names ("type": "x" or ["x", "null"]).
func (s schemaInfo) types() []string {
	var one string
	if json.Unmarshal(s.Type, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(s.Type, &many)
	return many
}

// mainType is the schema's single non-null type, or "".
func (s schemaInfo) mainType() string {
	var out string
	for _, t := range s.types() {
		if t == "null" {
			continue
		}
		if out != "" {
			return ""
		}
		out = t
	}
	return out
}

// props returns the schema's properties in the order it lists them.
func (s schemaInfo) props() []prop {
	var out []prop
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		name, _ := t.(string)
		var raw json.RawMessage
		if dec.Decode(&raw) != nil {
			return out
		}
		out = append(out, prop{Name: name, Schema: raw, Required: slices.Contains(s.Required, name)})
	}
	return out
}

// field kinds a form can edit.
const (
	kindText   = "string"
	kindNumber = "number"
	kindInt    = "integer"
	kindChoice = "choice" // enum or boolean: pick one of Choices
)

// formField is one field of a simple form.
type formField struct {
	Name     string
	Kind     string
	Required bool
	Desc     string
	Choices  []json.RawMessage // for kindChoice
	Default  json.RawMessage
}

// formFields returns the fields of a flat object schema whose properties
// are all strings, numbers, integers, booleans or enums; ok is false when
// the schema needs the raw JSON editor.
func formFields(raw json.RawMessage) (fields []formField, ok bool) {
	s := readSchema(raw)
	if t := s.mainType(); (t != "" && t != "object") || s.Ref != "" || s.AnyOf != nil || s.OneOf != nil || s.AllOf != nil {
		return nil, false
	}
	for _, p := range s.props() {
		ps := readSchema(p.Schema)
		if ps.Ref != "" || ps.AnyOf != nil || ps.OneOf != nil || ps.AllOf != nil {
			return nil, false
		}
		f := formField{Name: p.Name, Required: p.Required, Desc: ps.Description, Default: ps.Default}
		switch t := ps.mainType(); {
		case len(ps.Enum) > 0 && simpleValues(ps.Enum):
			f.Kind, f.Choices = kindChoice, ps.Enum
		case ps.Const != nil && simpleValues([]json.RawMessage{ps.Const}):
			f.Kind, f.Choices = kindChoice, []json.RawMessage{ps.Const}
		case t == "boolean":
			f.Kind, f.Choices = kindChoice, []json.RawMessage{json.RawMessage("true"), json.RawMessage("false")}
		case t == "string" || t == "number" || t == "integer":
			f.Kind = t
		default:
			return nil, false
		}
		fields = append(fields, f)
	}
	return fields, true
}

func simpleValues(vs []json.RawMessage) bool {
	for _, v := range vs {
		t := strings.TrimSpace(string(v))
		if t == "" || t[0] == '{' || t[0] == '[' {
			return false
		}
	}
	return true
}

// skeleton returns arguments to start editing from: the required
// properties and those with a default, each at its default, its first enum
// value, or the empty value of its type; nested objects likewise.
func skeleton(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	writeSkeleton(&b, raw, 0)
	out, ok := prettyJSON(b.Bytes())
	if !ok {
		return json.RawMessage("{}")
	}
	return json.RawMessage(out)
}

// writeMember writes the separator and name of the nth member (from 0) of
// a JSON object being built; its value comes next.
func writeMember(b *bytes.Buffer, n int, name string) {
	if n > 0 {
		b.WriteByte(',')
	}
	k, _ := json.Marshal(name)
	b.Write(k)
	b.WriteByte(':')
}

func writeSkeleton(b *bytes.Buffer, raw json.RawMessage, depth int) {
	s := readSchema(raw)
	switch {
	case s.Default != nil:
		b.Write(s.Default)
		return
	case s.Const != nil:
		b.Write(s.Const)
		return
	case len(s.Enum) > 0:
		b.Write(s.Enum[0])
		return
	}
	switch s.mainType() {
	case "object", "":
		if depth > 6 || (s.mainType() == "" && s.Properties == nil && depth > 0) {
			b.WriteString("null")
			return
		}
		b.WriteByte('{')
		n := 0
		for _, p := range s.props() {
			if !p.Required && readSchema(p.Schema).Default == nil {
				continue
			}
			writeMember(b, n, p.Name)
			n++
			writeSkeleton(b, p.Schema, depth+1)
		}
		b.WriteByte('}')
	case "array":
		b.WriteString("[]")
	case "string":
		b.WriteString(`""`)
	case "number", "integer":
		b.WriteString("0")
	case "boolean":
		b.WriteString("false")
	default:
		b.WriteString("null")
	}
}

// fieldValue turns what was typed in a text field into JSON: a number
// field that holds no number stays a string, so the live check says so.
func fieldValue(kind, text string) json.RawMessage {
	switch kind {
	case kindNumber, kindInt:
		t := strings.TrimSpace(text)
		if _, err := strconv.ParseFloat(t, 64); err == nil {
			var v json.Number = json.Number(t)
			if b, err := json.Marshal(v); err == nil {
				return b
			}
		}
	}
	b, _ := json.Marshal(text)
	return b
}

// safeJSON returns the JSON text s with every character a terminal would
// act on or hide — C0 and C1 controls, DEL, bidi and zero-width characters
// — written as a \u escape, and invalid UTF-8 as \ufffd: the same JSON,
// shown safely. In valid JSON such characters stand only inside strings,
// where the escape means the same; the newlines and indents of pretty JSON
// stay.
func safeJSON(s string) string {
	if sanitize.Text(s) == s {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\ufffd`)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || sanitize.Invisible(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}
