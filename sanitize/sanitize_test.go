package sanitize

import (
	"strings"
	"testing"
)

// hostile holds each kind of sequence a server string can carry to take
// over a terminal or mislead its reader.
var hostile = []struct {
	name, in, line string
}{
	{"clear screen", "a\x1b[2Jb", `a␛[2Jb`},
	{"OSC 52 clipboard", "\x1b]52;c;ZXZpbA==\x07x", `␛]52;c;ZXZpbA==\ax`},
	{"OSC 0 title", "\x1b]0;owned\x1b\\", `␛]0;owned␛\`},
	{"OSC 2 title", "\x1b]2;owned\x07", `␛]2;owned\a`},
	{"OSC 8 link", "\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\", `␛]8;;http://evil␛\click␛]8;;␛\`},
	{"C1 CSI", "a\u009b31mred", `a\x9b31mred`},
	{"C1 OSC", "\u009d0;t\u009c", `\x9d0;t\x9c`},
	{"carriage return", "safe\rEVIL", `safe\rEVIL`},
	{"backspace", "rm -rf /\b\b\b\bls", `rm -rf /\b\b\b\bls`},
	{"bell and nul", "\a\x00", `\a\0`},
	{"DEL", "a\x7fb", `a\x7fb`},
	{"bidi override", "admin\u202egnp.exe", `admin\u202egnp.exe`},
	{"bidi isolate", "x\u2066y\u2069", `x\u2066y\u2069`},
	{"zero-width space", "get\u200buser", `get\u200buser`},
	{"byte order mark", "\ufeffname", `\ufeffname`},
	{"lone zero-width joiner", "\u200d", `\u200d`},
	{"zero-width joiner by no emoji", "\ufffd\u200d\xff", "\ufffd\\u200d\ufffd"},
	{"invalid UTF-8", "a\xffb\xc3", "a\ufffdb\ufffd"},
	{"newline in a line", "one\ntwo", `one\ntwo`},
	{"tab in a line", "a\tb", `a\tb`},
}

func TestLineShowsEveryControlVisibly(t *testing.T) {
	for _, tc := range hostile {
		got := Line(tc.in)
		if got != tc.line {
			t.Errorf("%s: Line(%q) = %q; want %q", tc.name, tc.in, got, tc.line)
		}
		if !Safe(got) {
			t.Errorf("%s: Line(%q) = %q still holds an unsafe character", tc.name, tc.in, got)
		}
	}
}

func TestTextKeepsLinesAndTabs(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"one\ntwo\tthree", "one\ntwo\tthree"},
		{"crlf\r\nnext", "crlf\nnext"},
		{"over\rwrite", `over\rwrite`},
		{"\x1b[31mred\x1b[0m\n", "␛[31mred␛[0m\n"},
		{"bidi\u202e\n", "bidi\\u202e\n"},
	} {
		got := Text(tc.in)
		if got != tc.want {
			t.Errorf("Text(%q) = %q; want %q", tc.in, got, tc.want)
		}
	}
}

func TestPlainTextIsUnchanged(t *testing.T) {
	for _, s := range []string{"", "add", "Add two numbers.", "héllo wörld", "日本語", "emoji 👩‍💻 ok", "a ✓ b"} {
		if got := Line(s); got != s {
			t.Errorf("Line(%q) = %q; want it unchanged", s, got)
		}
		if f := Scan(s, false); f.Any() {
			t.Errorf("Scan(%q) = %+v; want nothing", s, f)
		}
	}
}

func TestScanCountsWhatItFinds(t *testing.T) {
	f := Scan("a\x1b[2J\u202e\u200b\xff\n", false)
	want := Findings{Controls: 2, Escapes: 1, Bidi: 1, ZeroWidth: 1, InvalidUTF8: 1}
	if f != want {
		t.Fatalf("Scan = %+v; want %+v", f, want)
	}
	if got := f.String(); got != "2 control characters (1 escape), 1 bidi control, 1 zero-width character, 1 invalid UTF-8 byte" {
		t.Errorf("String() = %q", got)
	}
	if f := Scan("line\r\nnext\ttab", true); f.Any() {
		t.Errorf("multiline Scan of CRLF and tab = %+v; want nothing", f)
	}
	if f := Scan("over\rwrite", true); f.Controls != 1 {
		t.Errorf("multiline Scan of a lone CR = %+v; want 1 control", f)
	}
}

// Safe reports whether s holds nothing a terminal would act on: the
// property every sanitised string must have.
func Safe(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) || Bidi(r) || (ZeroWidth(r) && r != 0x200d)
	})
}

func FuzzLineIsSafe(f *testing.F) {
	for _, tc := range hostile {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := Line(s); !Safe(got) || strings.ContainsRune(got, '\n') {
			t.Fatalf("Line(%q) = %q is not safe", s, got)
		}
		if got := Text(s); !Safe(strings.NewReplacer("\n", "", "\t", "").Replace(got)) {
			t.Fatalf("Text(%q) = %q is not safe", s, got)
		}
	})
}

func BenchmarkLinePlain(b *testing.B) {
	s := "base64_encode — Encode text as base64 and answer with structured content"
	for b.Loop() {
		_ = Line(s)
	}
}
