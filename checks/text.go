package checks

import (
	"encoding/json"
	"unicode/utf8"

	"mcpwitness/finding"
	"mcpwitness/sanitize"
)

// UnsafeText is the check that flags server text holding characters a
// terminal or a reader can be fooled by: control characters and escape
// sequences (which clear the screen, set the window title, write the
// clipboard, overwrite what was printed), bidi controls (which make text
// read in another order than its bytes), zero-width characters (which hide
// inside names) and invalid UTF-8. mcpwitness shows such text escaped;
// other clients may not.
const UnsafeText = "unsafe-text"

// Severities of the findings of [UnsafeText]: a name that holds such
// characters is an error (clients match and show names verbatim), any
// other text a warning.
const (
	textNameSeverity  = finding.SeverityError
	textOtherSeverity = finding.SeverityWarning
)

// maxTextDepth bounds how deep [LintText] looks into a schema for titles
// and descriptions; deeper schemas are another check's finding.
const maxTextDepth = 64

// LintText flags the unsafe characters of a listed item: the name, title
// and description of a tool, prompt, resource or resource template (kind
// says which: "tool", "prompt", …), and the titles and descriptions inside
// a tool's inputSchema and outputSchema. One finding per field, saying what
// it holds, e.g. `tool "x" description holds 2 control characters (1
// escape), 1 bidi control`. A definition that is not a JSON object gives
// none (other checks say so).
func LintText(kind string, def json.RawMessage) []finding.Finding {
	var d struct {
		Name         json.RawMessage `json:"name"`
		Title        json.RawMessage `json:"title"`
		Description  json.RawMessage `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if json.Unmarshal(def, &d) != nil {
		return nil
	}
	name, nameFound := scanRaw(d.Name, false)
	tf := textFindings{who: kind + ` "` + sanitize.Line(name) + `"`, item: name}
	add := tf.add
	add("name", textNameSeverity, nameFound)
	_, title := scanRaw(d.Title, false)
	add("title", textOtherSeverity, title)
	_, desc := scanRaw(d.Description, true)
	add("description", textOtherSeverity, desc)
	add("inputSchema text", textOtherSeverity, schemaText(d.InputSchema))
	add("outputSchema text", textOtherSeverity, schemaText(d.OutputSchema))
	return tf.out
}

// textFindings gathers the findings of one item's fields.
type textFindings struct {
	who, item string
	out       []finding.Finding
}

// add records a finding for field when f found anything.
func (t *textFindings) add(field string, sev finding.Severity, f sanitize.Findings) {
	if !f.Any() {
		return
	}
	verb := " holds "
	if field == "instructions" {
		verb = " hold "
	}
	t.out = append(t.out, finding.Finding{Check: UnsafeText, Severity: sev, Item: t.item,
		Message: t.who + " " + field + verb + f.String()})
}

// scanRaw decodes the JSON string literal raw and says what it holds,
// counting as invalid UTF-8 what decoding replaces by U+FFFD: bytes that
// are not UTF-8 and lone surrogate escapes. Anything but a string is "".
func scanRaw(raw json.RawMessage, multiline bool) (string, sanitize.Findings) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", sanitize.Findings{}
	}
	f := sanitize.Scan(s, multiline)
	f.InvalidUTF8 += invalidInLiteral(raw)
	return s, f
}

// invalidInLiteral counts the bytes of a JSON string literal that are not
// UTF-8 and its \u escapes of lone surrogates.
func invalidInLiteral(raw []byte) int {
	n := 0
	for i := 0; i < len(raw); {
		c := raw[i]
		switch {
		case c == '\\' && i+1 < len(raw) && raw[i+1] == 'u':
			r, ok := hex4(raw[i+2:])
			switch {
			case !ok:
				i += 2
				continue
			case r >= 0xd800 && r < 0xdc00:
				if i+12 <= len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
					if lo, ok := hex4(raw[i+8:]); ok && lo >= 0xdc00 && lo < 0xe000 {
						i += 12
						continue
					}
				}
				n++
			case r >= 0xdc00 && r < 0xe000:
				n++
			}
			i += 6
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(raw[i:])
			if r == utf8.RuneError && size == 1 {
				n++
			}
			i += size
		}
	}
	return n
}

// hex4 reads four hex digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		var d byte
		switch {
		case c >= '0' && c <= '9':
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(d)
	}
	return r, true
}

// LintServerText flags the unsafe characters of what a server says of
// itself at initialize: its name (an error), version and instructions (warnings).
func LintServerText(name, version, instructions string) []finding.Finding {
	tf := textFindings{who: `server "` + sanitize.Line(name) + `"`, item: name}
	add := tf.add
	add("name", textNameSeverity, sanitize.Scan(name, false))
	add("version", textOtherSeverity, sanitize.Scan(version, false))
	add("instructions", textOtherSeverity, sanitize.Scan(instructions, true))
	return tf.out
}

// schemaText sums what the title and description strings of a schema, and
// of the schemas inside it, hold.
func schemaText(raw json.RawMessage) sanitize.Findings {
	var total sanitize.Findings
	if len(raw) == 0 {
		return total
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return total
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > maxTextDepth {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for k, sub := range x {
				if s, ok := sub.(string); ok && (k == "title" || k == "description") {
					total = plus(total, sanitize.Scan(s, k == "description"))
					continue
				}
				walk(sub, depth+1)
			}
		case []any:
			for _, sub := range x {
				walk(sub, depth+1)
			}
		}
	}
	walk(v, 0)
	return total
}

func plus(a, b sanitize.Findings) sanitize.Findings {
	return sanitize.Findings{
		Controls:    a.Controls + b.Controls,
		Escapes:     a.Escapes + b.Escapes,
		Bidi:        a.Bidi + b.Bidi,
		ZeroWidth:   a.ZeroWidth + b.ZeroWidth,
		InvalidUTF8: a.InvalidUTF8 + b.InvalidUTF8,
	}
}
