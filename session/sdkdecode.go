package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"

	sjson "github.com/segmentio/encoding/json"

	"mcpwitness/jsonscan"
)

// The SDK decodes each tools/list page into mcp.ListToolsResult, whose
// schemas and _meta are maps of `any`: some 5 MB of maps per 10,000 tools,
// all thrown away, since the SDK itself is handed an empty page (see
// [sdkDecode]). Whether that decode would fail is told here without them:
// [sdkTools] mirrors the SDK's types field for field (names, tags, types;
// TestSDKToolsMirrorsTheSDK holds it to v1.8.0's), with each `any` read by
// [anyJSON], which accepts what decoding into `any` accepts but keeps
// nothing. A page it accepts, the SDK accepts; any other page is decoded
// as the SDK decodes it, for the SDK's own error.

// sdkToolsAccepts reports whether the SDK surely decodes result, the raw
// result of a tools/list page (one valid JSON value), without an error.
// false says only that the SDK's own decode must tell.
func sdkToolsAccepts(result json.RawMessage) bool {
	var page sdkTools
	_, err := sjson.Parse(result, &page, sjson.DontMatchCaseInsensitiveStructFields|sjson.DontCopyString)
	return err == nil
}

// sdkTools mirrors mcp.ListToolsResult: its embedded completeResultWithType
// (resultType), Meta (_meta) and Cacheable (ttlMs, cacheScope), then its
// own fields.
type sdkTools struct {
	ResultType string      `json:"resultType,omitempty"`
	Meta       anyObject   `json:"_meta,omitempty"`
	TTLMs      int         `json:"ttlMs"`
	CacheScope string      `json:"cacheScope"`
	NextCursor string      `json:"nextCursor,omitempty"`
	Tools      sdkToolList `json:"tools"`
}

// sdkToolList reads the SDK's []*Tool as decoding it would: null, or an
// array of null or tool objects, each read into one [sdkTool] in turn
// rather than into a slice of them.
type sdkToolList struct{}

// UnmarshalJSON implements [json.Unmarshaler].
func (*sdkToolList) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var tool sdkTool
	ok := jsonscan.Elements(b, func(val []byte) bool {
		tool = sdkTool{}
		_, err := sjson.Parse(val, &tool, sjson.DontMatchCaseInsensitiveStructFields|sjson.DontCopyString)
		return err == nil
	})
	if !ok {
		return errNotSure
	}
	return nil
}

// sdkTool mirrors mcp.Tool. Annotations is a value, not the SDK's
// pointer: null and an object decode alike into either, and a value needs
// no allocation.
type sdkTool struct {
	Meta         anyObject      `json:"_meta,omitempty"`
	Annotations  sdkAnnotations `json:"annotations,omitempty"`
	Description  string         `json:"description,omitempty"`
	InputSchema  anyJSON        `json:"inputSchema"`
	Name         string         `json:"name"`
	OutputSchema anyJSON        `json:"outputSchema,omitempty"`
	Title        string         `json:"title,omitempty"`
	Icons        []sdkIcon      `json:"icons,omitempty"`
}

// sdkAnnotations mirrors mcp.ToolAnnotations.
type sdkAnnotations struct {
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  bool   `json:"idempotentHint"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
	ReadOnlyHint    bool   `json:"readOnlyHint"`
	Title           string `json:"title,omitempty"`
}

// sdkIcon mirrors mcp.Icon.
type sdkIcon struct {
	Source   string   `json:"src"`
	MIMEType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// errNotSure is what [anyJSON] and [anyObject] refuse with: a value whose
// decode into `any` the SDK's own decode must judge.
var errNotSure = errors.New("left to the SDK's decode")

// anyJSON reads a value as decoding it into `any` would, and keeps
// nothing. Any valid JSON value decodes into `any` but a number beyond
// float64's range (1e400), which it refuses as it would refuse a number
// it cannot read exactly as float64 does: such a number (any with an
// exponent or too many digits to be surely in range) is left to the SDK.
type anyJSON struct{}

// UnmarshalJSON implements [json.Unmarshaler].
func (*anyJSON) UnmarshalJSON(b []byte) error {
	if !numbersInRange(b) {
		return errNotSure
	}
	return nil
}

// anyObject reads a value as decoding it into a map[string]any (the SDK's
// Meta) would: null or an object of values [anyJSON] accepts.
type anyObject struct{}

// UnmarshalJSON implements [json.Unmarshaler].
func (*anyObject) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) == 0 || (b[0] != '{' && !bytes.Equal(b, []byte("null"))) {
		return errNotSure
	}
	if !numbersInRange(b) {
		return errNotSure
	}
	return nil
}

// maxPlainDigits is the length of a number token written without an
// exponent that is surely within float64's range (its largest is some
// 1.8e308: 309 digits before the point).
const maxPlainDigits = 300

// numbersInRange reports whether every number in b, valid JSON, is surely
// within float64's range: written without an exponent and in at most
// maxPlainDigits characters, or one strconv.ParseFloat reads without an
// error.
func numbersInRange(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case c == '"':
			// Skip the string: to its closing quote, past escapes.
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
		case c == '-' || (c >= '0' && c <= '9'):
			j, exp := i, false
			for ; j < len(b); j++ {
				d := b[j]
				if d == 'e' || d == 'E' {
					exp = true
				} else if !(d == '-' || d == '+' || d == '.' || (d >= '0' && d <= '9')) {
					break
				}
			}
			if exp || j-i > maxPlainDigits {
				if _, err := strconv.ParseFloat(string(b[i:j]), 64); err != nil {
					return false
				}
			}
			i = j - 1
		}
	}
	return true
}
