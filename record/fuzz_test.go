package record

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// FuzzOpenFile checks that no file makes the reader panic, and that what it
// reads agrees with the file line by line: every line that is an event is
// indexed, in order, and readable; every other line is skipped or cut.
func FuzzOpenFile(f *testing.F) {
	seeds := readSeeds(f)
	for _, b := range seeds {
		f.Add(b)
		ls := lines(b)
		f.Add(b[:len(b)-len(ls[len(ls)-1])/2])                                         // cut mid-line
		f.Add(bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")))                       // CRLF
		f.Add(bytes.Replace(b, []byte(`"kind":"page"`), []byte(`"kind":"pagina"`), 1)) // unknown kind
		f.Add(bytes.Replace(b, []byte(`"version":1`), []byte(`"version":2`), 1))       // future version
		f.Add(bytes.Join(append(ls[:3:3], []byte("{oops\n"), ls[3]), nil))             // a bad line
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := NewFile(bytes.NewReader(data), int64(len(data)), "fuzz")
		if err != nil {
			if msg := err.Error(); !strings.Contains(msg, "line 1") && !strings.Contains(msg, "empty") && !strings.Contains(msg, "format version") {
				t.Fatalf("an error that does not name line 1: %v", err)
			}
			return
		}
		if h := file.Header(); h.Format != FormatName || h.Version != FormatVersion {
			t.Fatalf("opened with header %+v", h)
		}
		checkAgainstLines(t, file, data)
		// The parallel index must agree with the sequential one.
		for _, workers := range []int{2, 5} {
			other := &File{r: bytes.NewReader(data), name: "fuzz", maxLine: MaxLine}
			if err := other.index(int64(len(data)), workers); err != nil {
				t.Fatalf("%d workers: %v", workers, err)
			}
			if !slices.Equal(other.starts, file.starts) || !slices.Equal(other.ends, file.ends) ||
				other.skipped != file.skipped || other.cut != file.cut || strings.Join(other.Warnings(), "\n") != strings.Join(file.Warnings(), "\n") ||
				!other.meta.First.Equal(file.meta.First) || !other.meta.Last.Equal(file.meta.Last) {
				t.Fatalf("%d workers index differently:\n%+v\n%+v", workers, other, file)
			}
		}
	})
}

// checkAgainstLines splits data into lines itself and checks the File
// agrees: Len, Skipped and Cut, and each event's line and decoding.
func checkAgainstLines(t *testing.T, file *File, data []byte) {
	t.Helper()
	var good [][]byte
	skipped, cut := 0, int64(0)
	rest := data[bytes.IndexByte(data, '\n')+1:]
	if bytes.IndexByte(data, '\n') < 0 {
		rest = nil
	}
	for len(rest) > 0 {
		i := bytes.IndexByte(rest, '\n')
		whole := i >= 0
		if !whole {
			i = len(rest)
		}
		line := bytes.TrimRight(rest[:i], "\r\n")
		n := i
		if whole {
			n++
		}
		rest = rest[n:]
		switch _, _, err := indexEvent(line); {
		case n > MaxLine:
			skipped++
		case len(bytes.TrimSpace(line)) == 0:
		case err == nil:
			good = append(good, line)
		case !whole:
			cut = int64(n)
		default:
			skipped++
		}
	}
	if file.Len() != len(good) || file.Skipped() != skipped || file.Cut() != cut {
		t.Fatalf("Len %d, Skipped %d, Cut %d; the lines say %d, %d, %d", file.Len(), file.Skipped(), file.Cut(), len(good), skipped, cut)
	}
	if skipped+btoi(cut > 0) > 0 && len(file.Warnings()) == 0 {
		t.Fatal("lines were skipped or cut without a warning")
	}
	i := 0
	for ev, err := range file.Events() {
		if err != nil {
			t.Fatalf("Events #%d: %v", i, err)
		}
		raw, err := file.RawLine(i)
		if err != nil || !bytes.Equal(raw, good[i]) {
			t.Fatalf("RawLine(%d) = %q, %v; want %q", i, raw, err, good[i])
		}
		if ev.Kind == "" || ev.T.IsZero() || !json.Valid(raw) {
			t.Fatalf("event %d: kind %q at %v from %q", i, ev.Kind, ev.T, raw)
		}
		i++
	}
	if i != len(good) {
		t.Fatalf("Events yielded %d events, want %d", i, len(good))
	}
	if m := file.Meta(); m.Events != len(good) || (len(good) > 0) == m.Last.IsZero() {
		t.Fatalf("Meta = %+v with %d events", m, len(good))
	}
}

func readSeeds(t testing.TB) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name := range seedCalls {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatalf("%v (go test ./record -run TestFuzzSeeds -write-seeds records them)", err)
		}
		out[name] = b
	}
	return out
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// seeds are the recorded seeds in testdata/.
var seedCalls = map[string][][2]string{
	"walk.jsonl":  nil,
	"calls.jsonl": {{"good", `{}`}, {"bad", `{}`}, {"echo", `{"said":"seed-token"}`}, {"missing", `{}`}},
}
