package tooldef

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Prop is one property of an object schema, in the order the schema lists
// them.
type Prop struct {
	Name     string
	Schema   json.RawMessage
	Required bool
}

// Schema is the part of a JSON Schema that editors and argument parsers
// read: enough to build a form or a skeleton, not to validate (that is the
// checks' work).
type Schema struct {
	Type json.RawMessage   `json:"type"`
	Enum []json.RawMessage `json:"enum"`
	// EnumNames names Enum's values (elicitation's legacy titled enum).
	EnumNames   []string        `json:"enumNames"`
	Const       json.RawMessage `json:"const"`
	Default     json.RawMessage `json:"default"`
	Description string          `json:"description"`
	Required    []string        `json:"required"`
	Properties  json.RawMessage `json:"properties"`
	Items       json.RawMessage `json:"items"`
	AnyOf       json.RawMessage `json:"anyOf"`
	OneOf       json.RawMessage `json:"oneOf"`
	AllOf       json.RawMessage `json:"allOf"`
	Ref         string          `json:"$ref"`
}

// ReadSchema reads raw as far as it can: a schema that is not a JSON
// object, or a member of the wrong type, reads as the zero value there.
func ReadSchema(raw json.RawMessage) Schema {
	var s Schema
	_ = json.Unmarshal(raw, &s)
	return s
}

// Types returns the schema's type names ("type": "x" or ["x", "null"]).
func (s Schema) Types() []string {
	var one string
	if json.Unmarshal(s.Type, &one) == nil && one != "" {
		return []string{one}
	}
	var many []string
	_ = json.Unmarshal(s.Type, &many)
	return many
}

// MainType is the schema's single non-null type, or "" when it has none
// or several.
func (s Schema) MainType() string {
	var out string
	for _, t := range s.Types() {
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

// Props returns the schema's properties in the order it lists them.
func (s Schema) Props() []Prop {
	var out []Prop
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
		out = append(out, Prop{Name: name, Schema: raw, Required: slices.Contains(s.Required, name)})
	}
	return out
}

// FieldKind is what a form field holds.
type FieldKind string

// The field kinds a form can edit. Those typed as text are named by their
// JSON Schema type, which [Coerce] reads them by.
const (
	KindText   FieldKind = "string"
	KindNumber FieldKind = "number"
	KindInt    FieldKind = "integer"
	KindChoice FieldKind = "choice"  // enum, const or boolean: pick one of Choices
	KindMulti  FieldKind = "choices" // an array of enum values: pick any of Choices
)

// Field is one field of a simple form.
type Field struct {
	Name     string
	Kind     FieldKind
	Required bool
	Desc     string
	Choices  []json.RawMessage // for KindChoice
	// Titles name Choices for people, one each ("" for none): a oneOf or
	// anyOf of titled consts, or enumNames beside an enum.
	Titles  []string
	Default json.RawMessage
}

// FormFields returns the fields of a flat object schema whose properties
// are all strings, numbers, integers, booleans or enums; ok is false when
// the schema needs a raw JSON editor.
func FormFields(raw json.RawMessage) (fields []Field, ok bool) {
	s := ReadSchema(raw)
	if t := s.MainType(); (t != "" && t != "object") || s.composed() {
		return nil, false
	}
	for _, p := range s.Props() {
		ps := ReadSchema(p.Schema)
		f := Field{Name: p.Name, Required: p.Required, Desc: ps.Description, Default: ps.Default}
		if consts, titles, ok := titledConsts(ps); ok {
			f.Kind, f.Choices, f.Titles = KindChoice, consts, titles
			fields = append(fields, f)
			continue
		}
		if ps.composed() {
			return nil, false
		}
		switch t := ps.MainType(); {
		case len(ps.Enum) > 0 && simpleValues(ps.Enum):
			f.Kind, f.Choices = KindChoice, ps.Enum
			if len(ps.EnumNames) == len(ps.Enum) {
				f.Titles = ps.EnumNames
			}
		case ps.Const != nil && simpleValues([]json.RawMessage{ps.Const}):
			f.Kind, f.Choices = KindChoice, []json.RawMessage{ps.Const}
		case t == "boolean":
			f.Kind, f.Choices = KindChoice, []json.RawMessage{json.RawMessage("true"), json.RawMessage("false")}
		case t == "string" || t == "number" || t == "integer":
			f.Kind = FieldKind(t)
		case t == "array":
			consts, titles, ok := multiSelect(ps)
			if !ok {
				return nil, false
			}
			f.Kind, f.Choices, f.Titles = KindMulti, consts, titles
		default:
			return nil, false
		}
		fields = append(fields, f)
	}
	return fields, true
}

// multiSelect reads an array whose items are an enum or titled consts, as
// elicitation's multi-selects are; ok is false for any other array.
func multiSelect(s Schema) (consts []json.RawMessage, titles []string, ok bool) {
	items := ReadSchema(s.Items)
	if consts, titles, ok = titledConsts(items); ok {
		return consts, titles, true
	}
	if len(items.Enum) > 0 && simpleValues(items.Enum) && !items.composed() {
		return items.Enum, nil, true
	}
	return nil, nil, false
}

// titledConsts reads a single choice written as a oneOf (or anyOf) of
// consts, each with an optional title, as elicitation's titled enums are
// (2025-11-25: {"type": "string", "oneOf": [{"const": "a", "title": "A"}]});
// ok is false for any other schema.
func titledConsts(s Schema) (consts []json.RawMessage, titles []string, ok bool) {
	if s.Ref != "" || s.AllOf != nil || (s.OneOf == nil) == (s.AnyOf == nil) {
		return nil, nil, false
	}
	alts := s.OneOf
	if alts == nil {
		alts = s.AnyOf
	}
	var members []struct {
		Const json.RawMessage `json:"const"`
		Title string          `json:"title"`
	}
	if json.Unmarshal(alts, &members) != nil || len(members) == 0 {
		return nil, nil, false
	}
	for _, m := range members {
		if m.Const == nil || !simpleValues([]json.RawMessage{m.Const}) {
			return nil, nil, false
		}
		consts, titles = append(consts, m.Const), append(titles, m.Title)
	}
	return consts, titles, true
}

// composed reports whether the schema refers elsewhere or combines others,
// which a simple form cannot show.
func (s Schema) composed() bool {
	return s.Ref != "" || s.AnyOf != nil || s.OneOf != nil || s.AllOf != nil
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

// Skeleton returns arguments to start editing from, indented by two
// spaces: the required properties and those with a default, each at its
// default, its first enum value, or the empty value of its type; nested
// objects likewise.
func Skeleton(raw json.RawMessage) json.RawMessage {
	var b, out bytes.Buffer
	writeSkeleton(&b, raw, 0)
	if json.Indent(&out, b.Bytes(), "", "  ") != nil {
		return json.RawMessage("{}")
	}
	return out.Bytes()
}

// Member is one member of a JSON object being built.
type Member struct {
	Name  string
	Value json.RawMessage
}

// Object writes members, in order, as one JSON object: the arguments a
// form's fields hold.
func Object(members []Member) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for n, m := range members {
		writeMember(&b, n, m.Name)
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
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
	s := ReadSchema(raw)
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
	switch s.MainType() {
	case "object", "":
		if depth > 6 || (s.MainType() == "" && s.Properties == nil && depth > 0) {
			b.WriteString("null")
			return
		}
		b.WriteByte('{')
		n := 0
		for _, p := range s.Props() {
			if !p.Required && ReadSchema(p.Schema).Default == nil {
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
