package demo

import (
	"bytes"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/base64"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"math"
	"math/big"
	"net/url"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type encodeIn struct {
	Text    string `json:"text" jsonschema:"the input"`
	URLSafe bool   `json:"url_safe,omitempty" jsonschema:"use the URL-safe alphabet"`
}

type hashIn struct {
	Text      string `json:"text"`
	Algorithm string `json:"algorithm"`
}

type passwordIn struct {
	Length  int  `json:"length,omitempty" jsonschema:"8 to 128 characters (default 20)"`
	Symbols bool `json:"symbols,omitempty" jsonschema:"include punctuation"`
}

type jsonFormatIn struct {
	JSON   string `json:"json" jsonschema:"the JSON document"`
	Indent int    `json:"indent,omitempty" jsonschema:"spaces per level, 0 to 8 (default 2)"`
	Minify bool   `json:"minify,omitempty" jsonschema:"drop all insignificant whitespace instead"`
}

type jsonPointerIn struct {
	JSON    string `json:"json" jsonschema:"the JSON document"`
	Pointer string `json:"pointer" jsonschema:"an RFC 6901 JSON Pointer such as /items/0/name"`
}

type csvIn struct {
	CSV       string `json:"csv" jsonschema:"CSV text whose first row is the header"`
	Delimiter string `json:"delimiter,omitempty" jsonschema:"a single character (default ,)"`
}

type bytesIn struct {
	Bytes  float64 `json:"bytes" jsonschema:"a size in bytes"`
	Binary bool    `json:"binary,omitempty" jsonschema:"use KiB, MiB… (powers of 1024) instead of kB, MB…"`
}

type colorIn struct {
	Hex string `json:"hex" jsonschema:"a colour such as #1e90ff or 1e90ff"`
}

func addDataTools(s *mcp.Server) {
	simple(s, &mcp.Tool{Name: "base64_encode", Description: "Encode text as base64 (standard or URL-safe alphabet)."},
		encodeBase64)
	simple(s, &mcp.Tool{Name: "base64_decode", Description: "Decode base64 (standard or URL-safe, padded or not) to text."},
		decodeBase64)
	simple(s, &mcp.Tool{Name: "url_encode", Description: "Percent-encode text for use in a URL query."},
		func(in textIn) (string, error) { return url.QueryEscape(in.Text), nil })
	simple(s, &mcp.Tool{Name: "url_decode", Description: "Decode percent-encoded URL query text."},
		func(in textIn) (string, error) { return url.QueryUnescape(in.Text) })
	simple(s, &mcp.Tool{
		Name:        "hash_text",
		Title:       "Hash Text",
		Description: "Hash text with MD5, SHA-1, SHA-256 or SHA-512; answers in hex.",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "text": {"type": "string", "description": "the input text"},
    "algorithm": {"type": "string", "enum": ["md5", "sha1", "sha256", "sha512"], "default": "sha256"}
  },
  "required": ["text"]
}`),
		Annotations: &mcp.ToolAnnotations{Title: "Hash Text", ReadOnlyHint: true, IdempotentHint: true},
	}, hashText)
	simple(s, &mcp.Tool{
		Name:        "uuid_v4",
		Description: "Generate a random (version 4) UUID.",
		Meta: mcp.Meta{
			"com.mcpwitness.demo/category": "identifiers",
			"com.mcpwitness.demo/rfc":      "RFC 9562",
		},
	}, func(any) (string, error) { return newUUID(), nil })
	simple(s, &mcp.Tool{Name: "generate_password", Description: "Generate a random password from a cryptographic source."},
		generatePassword)
	simple(s, &mcp.Tool{Name: "json_format", Description: "Pretty-print or minify a JSON document; reports where it is malformed."},
		formatJSON)
	simple(s, &mcp.Tool{Name: "json_pointer", Description: "Look up a value in a JSON document by JSON Pointer (RFC 6901)."},
		func(in jsonPointerIn) (string, error) { return jsonPointer(in.JSON, in.Pointer) })
	simple(s, &mcp.Tool{Name: "csv_to_json", Description: "Convert CSV with a header row into a JSON array of objects."},
		func(in csvIn) (string, error) { return csvToJSON(in.CSV, in.Delimiter) })
	simple(s, &mcp.Tool{Name: "format_bytes", Description: "Format a byte count for people: 1536 → \"1.5 KiB\" or \"1.5 kB\"."},
		func(in bytesIn) (string, error) { return formatBytes(in.Bytes, in.Binary), nil })
	simple(s, &mcp.Tool{Name: "color_convert", Description: "Convert a hex colour to RGB and HSL."},
		func(in colorIn) (string, error) { return convertColor(in.Hex) })
}

// encodeBase64 encodes in.Text as base64, in the URL-safe alphabet if asked.
func encodeBase64(in encodeIn) (string, error) {
	if in.URLSafe {
		return base64.URLEncoding.EncodeToString([]byte(in.Text)), nil
	}
	return base64.StdEncoding.EncodeToString([]byte(in.Text)), nil
}

// decodeBase64 decodes base64 in either alphabet, padded or not.
func decodeBase64(in textIn) (string, error) {
	t := strings.TrimRight(strings.TrimSpace(in.Text), "=")
	b, err := base64.RawStdEncoding.DecodeString(t)
	if err != nil {
		if b, err = base64.RawURLEncoding.DecodeString(t); err != nil {
			return "", fmt.Errorf("not base64: %v", err)
		}
	}
	return string(b), nil
}

// hashText answers the hex digest of in.Text by in.Algorithm (SHA-256 unless named).
func hashText(in hashIn) (string, error) {
	var h hash.Hash
	switch in.Algorithm {
	case "md5":
		h = md5.New()
	case "sha1":
		h = sha1.New()
	case "sha512":
		h = sha512.New()
	default:
		h = sha256.New()
	}
	h.Write([]byte(in.Text))
	return hex.EncodeToString(h.Sum(nil)), nil
}

// generatePassword answers a random password of in.Length characters (default 20) from a cryptographic source.
func generatePassword(in passwordIn) (string, error) {
	n := in.Length
	if n == 0 {
		n = 20
	}
	if n < 8 || n > 128 {
		return "", fmt.Errorf("length must be 8 to 128 (got %d)", n)
	}
	alphabet := "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	if in.Symbols {
		alphabet += "!#$%&*+-=?@^_~"
	}
	b := make([]byte, n)
	size := big.NewInt(int64(len(alphabet)))
	for i := range b {
		k, err := rand.Int(rand.Reader, size)
		if err != nil {
			return "", err
		}
		b[i] = alphabet[k.Int64()]
	}
	return string(b), nil
}

// formatJSON pretty-prints in.JSON with in.Indent spaces (default 2, at most 8), or minifies it.
func formatJSON(in jsonFormatIn) (string, error) {
	var buf bytes.Buffer
	var err error
	if in.Minify {
		err = json.Compact(&buf, []byte(in.JSON))
	} else {
		indent := in.Indent
		if indent == 0 {
			indent = 2
		}
		err = json.Indent(&buf, []byte(in.JSON), "", strings.Repeat(" ", min(max(indent, 0), 8)))
	}
	if err != nil {
		return "", fmt.Errorf("malformed JSON: %v", err)
	}
	return buf.String(), nil
}

// newUUID returns a random version 4 UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// jsonPointer returns the value at pointer in doc, as indented JSON.
func jsonPointer(doc, pointer string) (string, error) {
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		return "", fmt.Errorf("malformed JSON: %v", err)
	}
	if pointer != "" && !strings.HasPrefix(pointer, "/") {
		return "", fmt.Errorf("a JSON Pointer is empty or starts with /, got %q", pointer)
	}
	var refs []string
	if pointer != "" {
		refs = strings.Split(pointer[1:], "/")
	}
	for i, ref := range refs {
		ref = strings.ReplaceAll(strings.ReplaceAll(ref, "~1", "/"), "~0", "~")
		at := "/" + strings.Join(refs[:i], "/")
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[ref]
			if !ok {
				return "", fmt.Errorf("no member %q in the object at %s", ref, at)
			}
			v = next
		case []any:
			n, err := strconv.Atoi(ref)
			if err != nil || n < 0 || n >= len(x) {
				return "", fmt.Errorf("no index %q in the array of %d at %s", ref, len(x), at)
			}
			v = x[n]
		default:
			return "", fmt.Errorf("cannot step into %q: the value at %s is not an object or array", ref, at)
		}
	}
	b, err := json.MarshalIndent(v, "", "  ")
	return string(b), err
}

// csvToJSON converts CSV with a header row to an indented JSON array.
func csvToJSON(in, delim string) (string, error) {
	r := csv.NewReader(strings.NewReader(in))
	if delim != "" {
		d := []rune(delim)
		if len(d) != 1 {
			return "", fmt.Errorf("delimiter must be one character, got %q", delim)
		}
		r.Comma = d[0]
	}
	rows, err := r.ReadAll()
	if err != nil {
		return "", fmt.Errorf("malformed CSV: %v", err)
	}
	if len(rows) == 0 {
		return "[]", nil
	}
	out := make([]map[string]string, 0, len(rows)-1)
	for _, row := range rows[1:] {
		obj := make(map[string]string, len(row))
		for i, cell := range row {
			obj[rows[0][i]] = cell
		}
		out = append(out, obj)
	}
	b, err := json.MarshalIndent(out, "", "  ")
	return string(b), err
}

// formatBytes formats n bytes with decimal (kB) or binary (KiB) units.
func formatBytes(n float64, binary bool) string {
	base, units := 1000.0, []string{"B", "kB", "MB", "GB", "TB", "PB", "EB"}
	if binary {
		base, units = 1024.0, []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	}
	i := 0
	for math.Abs(n) >= base && i < len(units)-1 {
		n /= base
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%g %s", n, units[0])
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}

// convertColor describes a hex colour in RGB and HSL.
func convertColor(s string) (string, error) {
	h := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if len(h) == 3 {
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	b, err := hex.DecodeString(h)
	if err != nil || len(b) != 3 {
		return "", fmt.Errorf("not a hex colour: %q (want #rgb or #rrggbb)", s)
	}
	r, g, bl := float64(b[0])/255, float64(b[1])/255, float64(b[2])/255
	hi, lo := max(r, g, bl), min(r, g, bl)
	l := (hi + lo) / 2
	var hue, sat float64
	if d := hi - lo; d > 0 {
		sat = d / (1 - math.Abs(2*l-1))
		switch hi {
		case r:
			hue = math.Mod((g-bl)/d, 6)
		case g:
			hue = (bl-r)/d + 2
		default:
			hue = (r-g)/d + 4
		}
		hue *= 60
		if hue < 0 {
			hue += 360
		}
	}
	return fmt.Sprintf("#%s = rgb(%d, %d, %d) = hsl(%.0f, %.0f%%, %.0f%%)", strings.ToLower(h), b[0], b[1], b[2], hue, sat*100, l*100), nil
}
