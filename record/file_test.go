package record

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestOpenFileLineTooLong(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	b.WriteString(`{"format":"mcpwitness-session","version":1}` + "\n")
	long := `{"seq":1,"t":"2026-01-02T03:04:05Z","kind":"stderr","text":"` + strings.Repeat("x", 3000) + `"}` + "\n"
	b.WriteString(long)
	b.WriteString(`{"seq":2,"t":"2026-01-02T03:04:05Z","kind":"closed"}` + "\n")
	// A limit of 1 KiB stands for MaxLine, so the test need not write 64 MiB.
	f := &File{r: bytes.NewReader(b.Bytes()), name: "long", maxLine: 1 << 10}
	if err := f.index(int64(b.Len()), 0); err != nil {
		t.Fatal(err)
	}
	if f.Len() != 1 || f.Skipped() != 1 || len(f.Warnings()) != 1 || f.Warnings()[0] != fmt.Sprintf("line 2 is %d bytes, longer than the 1024 bytes a line may be; skipped", len(long)) {
		t.Errorf("Len %d, skipped %d, warnings %q", f.Len(), f.Skipped(), f.Warnings())
	}
	if ev, err := f.Event(0); err != nil || ev.Kind != KindClosed {
		t.Errorf("the line after the long one = %v, %v", ev.Kind, err)
	}
}

// TestSpacedFindsSpaceBetweenTokensOnly: a frame is compacted when it has
// space between its tokens, and written as it came when it has none (space
// inside its strings is its text).
func TestSpacedFindsSpaceBetweenTokensOnly(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]bool{
		`{"a":"x y","b":[1,2]}`:   false,
		`{"a":"q\" ","b":"\\"}`:   false,
		`{"a": 1}`:                true,
		"{\"a\":1,\n\"b\":2}":     true,
		`{"a":"\\", "b":1}`:       true,
		`["tab	inside a string"]`: false,
		"[1,\t2]":                 true,
	} {
		if got := spaced([]byte(raw)); got != want {
			t.Errorf("spaced(%s) = %v, want %v", raw, got, want)
		}
	}
}

// lines splits a recording into its lines, newline included.
func lines(b []byte) [][]byte {
	return bytes.SplitAfter(bytes.TrimSuffix(b, []byte("\n")), []byte("\n"))
}
