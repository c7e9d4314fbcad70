package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"

	"mcpwitness/record"
	"mcpwitness/render"
)

// writeJSON writes v as one indented JSON document: strict UTF-8 JSON
// (see [cleanJSON]) with every secret red knows replaced. A tools document
// is streamed (see [toolsDoc.writeJSON]).
func writeJSON(w io.Writer, v any, red *record.Redactor) error {
	if d, ok := v.(toolsDoc); ok {
		return d.writeJSON(w, red)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if b, err = cleanJSON(b); err != nil {
		return err
	}
	b = red.JSON(b)
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// cleanJSON re-encodes the JSON text b so that any strict reader accepts it
// and a terminal shows it safely: invalid UTF-8 and lone surrogate escapes
// (which raw server frames embedded in a document may hold) become U+FFFD,
// and C0 and C1 controls, DEL, bidi controls and zero-width characters are
// written as \u escapes, which decode to the same string. Object keys keep
// their order. The raw bytes stay in the session file.
func cleanJSON(b []byte) ([]byte, error) {
	if plainJSON(b) {
		// Compact JSON as json.Marshal writes it, with no escape and no
		// byte outside printable ASCII, reads back to itself.
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type container struct {
		object bool
		n      int // values (and keys) written so far
	}
	var stack []container
	out := make([]byte, 0, len(b)+len(b)/16)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			out = append(out, byte(d))
			continue
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.n%2 == 1:
				out = append(out, ':')
			case top.n > 0:
				out = append(out, ',')
			}
			top.n++
		}
		switch v := tok.(type) {
		case json.Delim:
			stack = append(stack, container{object: v == '{'})
			out = append(out, byte(v))
		case string:
			out = appendJSONString(out, v)
		case json.Number:
			out = append(out, v...)
		case bool:
			out = strconv.AppendBool(out, v)
		case nil:
			out = append(out, "null"...)
		}
	}
	return out, nil
}

// plainJSON reports whether cleanJSON would give the JSON text b back
// unchanged: b holds only printable ASCII, no backslash, and no space
// outside its strings.
func plainJSON(b []byte) bool {
	inString := false
	for _, c := range b {
		switch {
		case c < 0x20 || c > 0x7e || c == '\\':
			return false
		case c == '"':
			inString = !inString
		case c == ' ' && !inString:
			return false
		}
	}
	return true
}

// appendJSONString appends s as json.Marshal writes it, with DEL, C1
// controls and every character the sanitiser shows escaped (bidi,
// zero-width, tag and other format characters, stray variation selectors,
// fillers, separators) written as \u escapes, beyond U+FFFF as surrogate
// pairs (see [render.SafeJSON]).
func appendJSONString(out []byte, s string) []byte {
	q, _ := json.Marshal(s)
	if !slices.ContainsFunc(q, func(c byte) bool { return c >= 0x7f }) {
		return append(out, q...)
	}
	return append(out, render.SafeJSON(string(q))...)
}

// writeJSON writes the tools document to w as [writeJSON] would write it,
// byte for byte, without building it whole: each field, and each tool of
// the tools array, is encoded, cleaned, redacted and indented on its own
// and written through one buffered writer as it is formatted.
func (d toolsDoc) writeJSON(w io.Writer, red *record.Redactor) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := docStream{w: bw, red: red}
	bw.WriteString("{\n")
	s.field("kind", d.Kind, false)
	s.field("schemaVersion", d.SchemaVersion, false)
	s.field("server", d.Server, false)
	s.field("walk", d.Walk, false)
	s.key("pages")
	writeArray(&s, d.Pages)
	bw.WriteString(",\n")
	s.key("tools")
	writeItems(&s, d.toolCount(), d.tool)
	bw.WriteString(",\n")
	s.field("findings", d.Findings, true)
	bw.WriteString("}\n")
	if s.err != nil {
		return s.err
	}
	return bw.Flush()
}

// docStream writes the parts of an indented JSON document; the first error
// stops it.
type docStream struct {
	w   *bufio.Writer
	red *record.Redactor
	buf bytes.Buffer
	err error
}

// key writes the name of a top-level field.
func (s *docStream) key(name string) {
	s.w.WriteString("  ")
	s.w.Write(appendJSONString(nil, name))
	s.w.WriteString(": ")
}

// field writes a whole top-level field.
func (s *docStream) field(name string, v any, last bool) {
	s.key(name)
	s.value(v, "  ")
	if !last {
		s.w.WriteByte(',')
	}
	s.w.WriteByte('\n')
}

// value writes v, indented as it would be at the depth prefix says.
func (s *docStream) value(v any, prefix string) {
	if s.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		b, err = cleanJSON(b)
	}
	if err == nil {
		s.buf.Reset()
		err = indentJSON(&s.buf, s.red.JSON(b), prefix, "  ")
	}
	if err != nil {
		s.err = err
		return
	}
	s.w.Write(s.buf.Bytes())
}

// writeArray writes the top-level array items, one item at a time.
func writeArray[T any](s *docStream, items []T) {
	writeItems(s, len(items), func(i int) T { return items[i] })
}

// writeItems writes a top-level array of n items, item(i) the i-th, made
// and written one at a time.
func writeItems[T any](s *docStream, n int, item func(int) T) {
	if n == 0 {
		s.w.WriteString("[]")
		return
	}
	s.w.WriteString("[\n")
	for i := range n {
		s.w.WriteString("    ")
		s.value(item(i), "    ")
		if i < n-1 {
			s.w.WriteByte(',')
		}
		s.w.WriteByte('\n')
	}
	s.w.WriteString("  ]")
}
