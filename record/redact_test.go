package record

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRedactorJSON: any valid JSON in gives valid JSON out, with no
// secret left in any string once decoded.
func FuzzRedactorJSON(f *testing.F) {
	for _, s := range []string{`{"a":"s3cr3t-value"}`, `["\u0073\u0033cr3t-value", true, 12]`, `{"s3cr3t-value":"x\/y"}`, `"\ud83d\ude00s3cr3t-value"`, `{"k":"a\\\"s3cr3t-value\"b"}`} {
		f.Add(s, "s3cr3t-value")
	}
	f.Fuzz(func(t *testing.T, in, secret string) {
		if !json.Valid([]byte(in)) || len(secret) < minScrub || !utf8.ValidString(secret) || strings.ContainsAny(secret, "[]") {
			return
		}
		red := NewRedactor(nil)
		red.Add("S", secret)
		out := red.JSON([]byte(in))
		if !json.Valid(out) {
			t.Fatalf("JSON(%s) = %s: not valid JSON", in, out)
		}
		var v any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatal(err)
		}
		// A secret may be part of the placeholder's own text ("ACTED").
		var stripped any
		unplaced := strings.ReplaceAll(string(out), Placeholder("S", secret), "")
		if err := json.Unmarshal([]byte(unplaced), &stripped); err != nil {
			t.Fatal(err)
		}
		if leaked := findString(stripped, secret); leaked != "" {
			t.Fatalf("JSON(%s) = %s: secret %q left in %q", in, out, secret, leaked)
		}
	})
}

// findString returns a string in v (keys included) that holds s, or "".
func findString(v any, s string) string {
	switch v := v.(type) {
	case string:
		if strings.Contains(v, s) {
			return v
		}
	case []any:
		for _, e := range v {
			if f := findString(e, s); f != "" {
				return f
			}
		}
	case map[string]any:
		for k, e := range v {
			if strings.Contains(k, s) {
				return k
			}
			if f := findString(e, s); f != "" {
				return f
			}
		}
	}
	return ""
}
