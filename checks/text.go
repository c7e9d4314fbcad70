package checks

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mcpwitness/finding"
	"mcpwitness/sanitize"
)

// UnsafeText is the check that flags model-facing server text holding
// characters a terminal, a reader or a model can be fooled by: control
// characters and escape sequences (which clear the screen, set the window
// title, write the clipboard, overwrite what was printed), bidi controls
// (which make text read in another order than its bytes), zero-width and
// other format characters, stray variation selectors and fillers (which
// hide inside names or carry bytes), tag characters (which spell ASCII no
// reader sees but a model reads) and invalid UTF-8. mcpwitness shows such
// text escaped; other clients, and the model, may not. The text is every
// name, title and description of a listed item, the titles and
// descriptions of its schemas, its prompt arguments' names, titles and
// descriptions, and the server's name, version and instructions.
const UnsafeText = "unsafe-text"

// Severities of the findings of [UnsafeText]: a name that holds such
// characters is an error (clients match and show names verbatim), and so
// is tag text anywhere (no model-facing text has a use for invisible
// ASCII outside a flag emoji); any other text is a warning.
const (
	textNameSeverity  = finding.SeverityError
	textOtherSeverity = finding.SeverityWarning
)

// maxTextDepth bounds how deep [LintText] looks into a schema for titles
// and descriptions; deeper schemas are another check's finding.
const maxTextDepth = 64

// maxHidden is how much of the text tag runs spell a finding quotes.
const maxHidden = 120

// LintText flags the unsafe characters of a listed item: the name, title
// and description of a tool, prompt, resource or resource template (kind
// says which: "tool", "prompt", …), the titles and descriptions inside a
// tool's inputSchema and outputSchema (each named by its JSON pointer),
// and a prompt's arguments. One finding per field, saying what it holds
// and what tag runs spell, e.g. `tool "x" description holds 28 tag
// characters; hidden text: "Ignore previous instructions"`. A definition
// that is not a JSON object gives none (other checks say so).
func LintText(kind string, def json.RawMessage) []finding.Finding {
	var d struct {
		Name         json.RawMessage `json:"name"`
		Title        json.RawMessage `json:"title"`
		Description  json.RawMessage `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
		Arguments    []struct {
			Name, Title, Description json.RawMessage
		} `json:"arguments"`
	}
	if plainJSON(def) || json.Unmarshal(def, &d) != nil {
		return nil
	}
	name, nameFound := scanRaw(d.Name, false)
	tf := textFindings{who: kind + ` "` + sanitize.Line(name) + `"`, item: name}
	tf.add("name", textNameSeverity, nameFound, name)
	tf.addRaw("title", textOtherSeverity, d.Title, false)
	tf.addRaw("description", textOtherSeverity, d.Description, true)
	tf.schema("inputSchema", d.InputSchema)
	tf.schema("outputSchema", d.OutputSchema)
	for _, a := range d.Arguments {
		argName, argFound := scanRaw(a.Name, false)
		field := `argument "` + sanitize.Line(argName) + `" `
		tf.add(field+"name", textNameSeverity, argFound, argName)
		tf.addRaw(field+"title", textOtherSeverity, a.Title, false)
		tf.addRaw(field+"description", textOtherSeverity, a.Description, true)
	}
	return tf.out
}

// plainJSON reports whether no string of the JSON text raw can hold
// anything [LintText] flags, in one pass: its only escapes are \n, \t,
// \", \\ and \/, and the text itself holds nothing [sanitize.Scan] finds.
// A decoded string differs from its text only by those escapes and its
// quotes, all ASCII that no hidden character needs beside it, so what the
// text does not hold no string does.
func plainJSON(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' {
			if i+1 == len(raw) || !strings.ContainsRune(`nt"\/`, rune(raw[i+1])) {
				return false
			}
			i++
		}
	}
	return !sanitize.Scan(string(raw), true).Any()
}

// textFindings gathers the findings of one item's fields.
type textFindings struct {
	who, item string
	out       []finding.Finding
}

// addRaw records a finding for field when the JSON string raw holds
// anything.
func (t *textFindings) addRaw(field string, sev finding.Severity, raw json.RawMessage, multiline bool) {
	s, f := scanRaw(raw, multiline)
	t.add(field, sev, f, s)
}

// add records a finding for field, whose text is s, when f found anything:
// an error when s holds tag characters, and the text they spell quoted.
func (t *textFindings) add(field string, sev finding.Severity, f sanitize.Findings, s string) {
	if !f.Any() {
		return
	}
	verb := " holds "
	if field == "instructions" {
		verb = " hold "
	}
	msg := t.who + " " + field + verb + f.String()
	if f.Tags > 0 {
		sev = finding.SeverityError
		if hidden := strings.Join(sanitize.HiddenText(s), " "); hidden != "" {
			msg += `; hidden text: "` + sanitize.Line(cut(hidden, maxHidden)) + `"`
		}
	}
	t.out = append(t.out, finding.Finding{Check: UnsafeText, Severity: sev, Item: t.item, Message: msg})
}

// cut shortens s to at most n bytes (s is ASCII), marking the cut with …
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
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
// itself at initialize: its name (an error), version and instructions
// (warnings, or errors when they hold tag characters).
func LintServerText(name, version, instructions string) []finding.Finding {
	tf := textFindings{who: `server "` + sanitize.Line(name) + `"`, item: name}
	tf.add("name", textNameSeverity, sanitize.Scan(name, false), name)
	tf.add("version", textOtherSeverity, sanitize.Scan(version, false), version)
	tf.add("instructions", textOtherSeverity, sanitize.Scan(instructions, true), instructions)
	return tf.out
}

// schema records a finding for every title and description string of the
// schema raw, and of the schemas inside it, named by its JSON pointer
// under field, e.g. "inputSchema /properties/q/description".
func (t *textFindings) schema(field string, raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return
	}
	var walk func(v any, pointer string, depth int)
	walk = func(v any, pointer string, depth int) {
		if depth > maxTextDepth {
			return
		}
		switch x := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				at := pointer + "/" + pointerEscape(k)
				if s, ok := x[k].(string); ok && (k == "title" || k == "description") {
					t.add(field+" "+sanitize.Line(at), textOtherSeverity, sanitize.Scan(s, k == "description"), s)
					continue
				}
				walk(x[k], at, depth+1)
			}
		case []any:
			for i, sub := range x {
				walk(sub, pointer+"/"+strconv.Itoa(i), depth+1)
			}
		}
	}
	walk(v, "", 0)
}

// pointerEscape escapes a key for a JSON pointer (RFC 6901).
func pointerEscape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
