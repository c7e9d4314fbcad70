package demo

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/kaptinlin/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// showcase are the tools the inspector's checks and notifications rely on.
var showcase = []string{
	"add", "weather", "forecast_broken", "summary_no_structured", "unresolved_ref", "fail_always",
	"slow_count", "render_video", "transcribe_audio", "toggle_tools", "log_burst",
}

// checkPages asserts the pages hold every tool once, at most size per page,
// with every page but the last full.
func checkPages(t *testing.T, pages [][]*mcp.Tool, size, wantTools int) {
	t.Helper()
	all := flatten(pages)
	if len(all) != wantTools {
		t.Errorf("got %d tools, want %d", len(all), wantTools)
	}
	if want := (len(all) + size - 1) / size; len(pages) != want {
		t.Errorf("got %d pages for %d tools, want %d (page size %d)", len(pages), len(all), want, size)
	}
	for i, p := range pages {
		if len(p) > size || (i < len(pages)-1 && len(p) != size) {
			t.Errorf("page %d holds %d tools, want %d", i+1, len(p), size)
		}
	}
	n := names(all)
	if !slices.IsSorted(n) || len(slices.Compact(slices.Clone(n))) != len(n) {
		t.Errorf("tools repeated or out of order across pages: %v", n)
	}
}

// count returns the number of tools of a fresh demo server.
func count(t *testing.T) int {
	t.Helper()
	cs, _ := connect(t, nil, nil, legacy)
	return len(flatten(walk(t, cs)))
}

func TestToolPages(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	pages := walk(t, cs)
	all := flatten(pages)
	if len(all) < 40 {
		t.Fatalf("got %d tools, want at least 40", len(all))
	}
	checkPages(t, pages, 10, len(all))
	for _, name := range showcase {
		if !slices.Contains(names(all), name) {
			t.Errorf("tool %q missing", name)
		}
	}
	for _, tool := range all {
		if tool.Description == "" {
			t.Errorf("tool %q has no description", tool.Name)
		}
	}
}

func TestFillerPages(t *testing.T) {
	base := count(t)
	cs, _ := connect(t, &Options{Filler: 10000, PageSize: 100}, nil, legacy)
	pages := walk(t, cs)
	checkPages(t, pages, 100, base+10000)
	all := names(flatten(pages))
	for _, name := range []string{"filler_00001", "filler_05000", "filler_10000"} {
		if !slices.Contains(all, name) {
			t.Errorf("%s missing", name)
		}
	}
	if res := call(t, cs, "filler_00042", map[string]any{"value": "x"}); res.IsError || !strings.Contains(textOf(res), `"x"`) {
		t.Errorf("filler_00042 answered %q", textOf(res))
	}
}

// wireTools returns every tool definition found in the tools/list answers
// among frames, by name, as raw JSON members.
func wireTools(t *testing.T, frames [][]byte) map[string]map[string]json.RawMessage {
	t.Helper()
	out := map[string]map[string]json.RawMessage{}
	for _, f := range frames {
		var msg struct {
			Result struct {
				Tools []map[string]json.RawMessage `json:"tools"`
			} `json:"result"`
		}
		if err := json.Unmarshal(f, &msg); err != nil {
			t.Fatalf("frame %s: %v", f, err)
		}
		for _, tool := range msg.Result.Tools {
			var name string
			json.Unmarshal(tool["name"], &name)
			out[name] = tool
		}
	}
	return out
}

func TestExecutionOnWire(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts *mcp.ClientSessionOptions
	}{{"2025-11-25", legacy}, {"default protocol", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			cs, tp := connect(t, nil, nil, tc.opts)
			walk(t, cs)
			var found bool
			for _, f := range tp.Frames() {
				found = found || strings.Contains(string(f), `"execution":{"taskSupport":"required"}`)
			}
			if !found {
				t.Errorf(`no frame holds "execution":{"taskSupport":"required"}`)
			}
			tools := wireTools(t, tp.Frames())
			if len(tools) < 40 {
				t.Fatalf("found %d tools on the wire, want at least 40", len(tools))
			}
			want := map[string]string{
				"render_video":     `{"taskSupport":"required"}`,
				"transcribe_audio": `{"taskSupport":"optional"}`,
			}
			for name, tool := range tools {
				if got := string(tool["execution"]); got != want[name] {
					t.Errorf("%s: execution = %q, want %q", name, got, want[name])
				}
			}
		})
	}
}

// listed returns the definition of the named tool as the client sees it.
func listed(t *testing.T, cs *mcp.ClientSession, name string) *mcp.Tool {
	t.Helper()
	for _, tool := range flatten(walk(t, cs)) {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("tool %q not listed", name)
	return nil
}

// compile compiles a listed output schema as the inspector would.
func compile(t *testing.T, schema any) *jsonschema.Schema {
	t.Helper()
	b, err := json.Marshal(schema)
	if err != nil {
		t.Fatal(err)
	}
	s, err := jsonschema.NewCompiler().Compile(b)
	if err != nil {
		t.Fatalf("compiling %s: %v", b, err)
	}
	return s
}

// failures returns "instance path: keyword" for every failure of value
// against schema. The validator gives each detail's instance location
// relative to its parent's, so paths are joined on the way down.
func failures(t *testing.T, schema *jsonschema.Schema, value any) []string {
	t.Helper()
	var out []string
	var visit func(l jsonschema.List, base string)
	visit = func(l jsonschema.List, base string) {
		path := base + l.InstanceLocation
		for kw := range l.Errors {
			out = append(out, path+": "+kw)
		}
		for _, d := range l.Details {
			visit(d, path)
		}
	}
	visit(*schema.Validate(value).ToList(true), "")
	slices.Sort(out)
	return slices.Compact(out)
}

func TestValidStructuredContent(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want map[string]any // members structuredContent must hold
	}{
		{"add", map[string]any{"a": 2, "b": 3.5}, map[string]any{"sum": 5.5}},
		{"weather", map[string]any{"city": "Lisbon"}, map[string]any{"city": "Lisbon", "units": "celsius"}},
		{"weather", map[string]any{"city": "Lisbon", "units": "fahrenheit"}, map[string]any{"units": "fahrenheit"}},
		{"word_count", map[string]any{"text": "one two\nthree"}, map[string]any{"words": 3.0, "lines": 2.0}},
		{"statistics", map[string]any{"numbers": []float64{1, 2, 3, 4}}, map[string]any{"median": 2.5, "count": 4.0}},
		{"note_list", nil, map[string]any{}},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if res.IsError {
			t.Errorf("%s: isError: %s", tc.tool, textOf(res))
			continue
		}
		got := structured(t, res)
		for k, v := range tc.want {
			if got[k] != v {
				t.Errorf("%s: structuredContent[%q] = %v, want %v", tc.tool, k, got[k], v)
			}
		}
		if f := failures(t, compile(t, listed(t, cs, tc.tool).OutputSchema), got); len(f) > 0 {
			t.Errorf("%s: structuredContent %v fails its output schema: %v", tc.tool, got, f)
		}
	}
}

func TestForecastBrokenIsInvalid(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	res := call(t, cs, "forecast_broken", map[string]any{"city": "Oslo"})
	if res.IsError || res.StructuredContent == nil {
		t.Fatalf("want structuredContent and no isError, got %+v", res)
	}
	got := failures(t, compile(t, listed(t, cs, "forecast_broken").OutputSchema), structured(t, res))
	for _, want := range []string{"/temperature: type", "/humidity: maximum", "/days/1/high: type", "/days/2: required"} {
		if !slices.Contains(got, want) {
			t.Errorf("failure %q not reported; got %v", want, got)
		}
	}
}

func TestSummaryNoStructured(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	if listed(t, cs, "summary_no_structured").OutputSchema == nil {
		t.Fatal("summary_no_structured lists no outputSchema")
	}
	res := call(t, cs, "summary_no_structured", map[string]any{"text": "First point. Second point."})
	if res.IsError || res.StructuredContent != nil || textOf(res) == "" {
		t.Errorf("want text only, no structuredContent, no isError; got %+v", res)
	}
}

func TestUnresolvedRef(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	s := compile(t, listed(t, cs, "unresolved_ref").OutputSchema)
	if refs := s.UnresolvedReferenceURIs(); len(refs) == 0 {
		t.Errorf("the output schema resolves; want a $ref that does not")
	}
	res := call(t, cs, "unresolved_ref", nil)
	if res.IsError || structured(t, res)["report"] == nil {
		t.Errorf("want structuredContent with a report, got %+v", res)
	}
}

func TestErrorResults(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"fail_always", nil, "unavailable"},
		{"render_video", map[string]any{"storyboard": "scene 1"}, "requires task-based execution"},
		{"render_video", nil, "requires task-based execution"},
		{"divide", map[string]any{"a": 1, "b": 0}, "division by zero"},
		{"add", map[string]any{"a": 1}, "b"}, // input the schema rejects
	} {
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(textOf(res), tc.want) {
			t.Errorf("%s(%v) = isError %v, %q; want isError and %q", tc.tool, tc.args, res.IsError, textOf(res), tc.want)
		}
	}
	if res := call(t, cs, "transcribe_audio", map[string]any{"url": "https://example.com/a.mp3"}); res.IsError {
		t.Errorf("transcribe_audio (task support optional) refused a plain call: %s", textOf(res))
	}
}

func TestUtilities(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"echo", map[string]any{"message": "hi", "times": 2}, "hi\nhi"},
		{"reverse_text", map[string]any{"text": "abç"}, "çba"},
		{"change_case", map[string]any{"text": "Hello big World", "mode": "snake"}, "hello_big_world"},
		{"change_case", map[string]any{"text": "hello big world", "mode": "camel"}, "helloBigWorld"},
		{"slugify", map[string]any{"text": "Hello, World!"}, "hello-world"},
		{"truncate_text", map[string]any{"text": "abcdefgh", "max": 5}, "abcd…"},
		{"regex_match", map[string]any{"pattern": `(\d+)-(\d+)`, "text": "a 10-20 b"}, `"10-20" groups ["10" "20"]`},
		{"sort_lines", map[string]any{"text": "b\na\nb", "unique": true}, "a\nb"},
		{"base64_encode", map[string]any{"text": "hi?"}, "aGk/"},
		{"base64_decode", map[string]any{"text": "aGk_"}, "hi?"},
		{"url_encode", map[string]any{"text": "a b&c"}, "a+b%26c"},
		{"url_decode", map[string]any{"text": "a+b%26c"}, "a b&c"},
		{"hash_text", map[string]any{"text": "abc"}, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"hash_text", map[string]any{"text": "abc", "algorithm": "md5"}, "900150983cd24fb0d6963f7d28e17f72"},
		{"json_format", map[string]any{"json": `{"a": [1, 2]}`, "minify": true}, `{"a":[1,2]}`},
		{"json_pointer", map[string]any{"json": `{"items":[{"name":"x"}]}`, "pointer": "/items/0/name"}, `"x"`},
		{"csv_to_json", map[string]any{"csv": "a,b\n1,2\n"}, `"b": "2"`},
		{"format_bytes", map[string]any{"bytes": 1536, "binary": true}, "1.5 KiB"},
		{"color_convert", map[string]any{"hex": "#ff0000"}, "rgb(255, 0, 0) = hsl(0, 100%, 50%)"},
		{"multiply", map[string]any{"a": 6, "b": 7}, "42"},
		{"is_prime", map[string]any{"n": 91}, "7 × 13"},
		{"fibonacci", map[string]any{"n": 6}, "0, 1, 1, 2, 3, 5"},
		{"gcd_lcm", map[string]any{"a": 12, "b": 18}, "gcd(12, 18) = 6, lcm = 36"},
		{"to_roman", map[string]any{"n": 1994}, "MCMXCIV"},
		{"convert_units", map[string]any{"value": 100, "from": "c", "to": "f"}, "= 212 f"},
		{"convert_units", map[string]any{"value": 1, "from": "mi", "to": "km"}, "= 1.60934 km"},
		{"random_int", map[string]any{"min": 7, "max": 7}, "7"},
		{"roll_dice", map[string]any{"dice": "3d6+2"}, "3d6+2 → ["},
		{"unix_to_iso", map[string]any{"seconds": 0}, "1970-01-01T00:00:00Z"},
		{"time_between", map[string]any{"start": "2025-01-01T00:00:00Z", "end": "2025-01-02T12:00:00Z"}, "36h0m0s (1.50 days)"},
		{"add_duration", map[string]any{"time": "2025-01-01T00:00:00Z", "duration": "90m"}, "2025-01-01T01:30:00Z"},
		{"current_time", map[string]any{"timezone": "Europe/Lisbon"}, "Europe/Lisbon"},
		{"lorem_ipsum", nil, "Lorem ipsum"},
		{"generate_password", map[string]any{"length": 12}, ""},
		{"uuid_v4", nil, "-4"},
	} {
		res := call(t, cs, tc.tool, tc.args)
		if res.IsError || !strings.Contains(textOf(res), tc.want) {
			t.Errorf("%s(%v) = %q (isError %v), want it to contain %q", tc.tool, tc.args, textOf(res), res.IsError, tc.want)
		}
	}
}

func TestAnnotationsAndMeta(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	tools := map[string]*mcp.Tool{}
	for _, tool := range flatten(walk(t, cs)) {
		tools[tool.Name] = tool
	}
	if a := tools["current_time"].Annotations; a == nil || !a.ReadOnlyHint {
		t.Errorf("current_time: want readOnlyHint, got %+v", a)
	}
	if a := tools["notes_clear"].Annotations; a == nil || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("notes_clear: want destructiveHint, got %+v", a)
	}
	if tools["hash_text"].Title != "Hash Text" {
		t.Errorf("hash_text: title %q", tools["hash_text"].Title)
	}
	if tools["uuid_v4"].Meta["com.mcpwitness.demo/category"] != "identifiers" {
		t.Errorf("uuid_v4: _meta %v", tools["uuid_v4"].Meta)
	}
}

func TestNotes(t *testing.T) {
	cs, _ := connect(t, nil, nil, legacy)
	call(t, cs, "note_add", map[string]any{"text": "buy milk"})
	call(t, cs, "note_add", map[string]any{"text": "call Ana"})
	notes, _ := structured(t, call(t, cs, "note_list", nil))["notes"].([]any)
	if len(notes) != 2 {
		t.Fatalf("note_list: %v, want 2 notes", notes)
	}
	r, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "demo://notepad"})
	if err != nil || !strings.Contains(r.Contents[0].Text, "call Ana") {
		t.Errorf("demo://notepad = %v, %v", r, err)
	}
	if got := textOf(call(t, cs, "notes_clear", nil)); !strings.Contains(got, "2 note") {
		t.Errorf("notes_clear: %q", got)
	}
	if notes, _ := structured(t, call(t, cs, "note_list", nil))["notes"].([]any); len(notes) != 0 {
		t.Errorf("after notes_clear: %v", notes)
	}
	if res := call(t, cs, "note_add", map[string]any{"text": "  "}); !res.IsError {
		t.Errorf("an empty note was accepted")
	}
}

func TestIndependentServers(t *testing.T) {
	ev := newEvents()
	cs1, _ := connect(t, nil, ev, legacy)
	cs2, _ := connect(t, nil, nil, legacy)
	n := len(flatten(walk(t, cs2)))
	call(t, cs1, "toggle_tools", nil)
	wait(t, ev.listChanged, "tools/list_changed")
	if got := len(flatten(walk(t, cs1))); got != n+3 {
		t.Errorf("toggled server lists %d tools, want %d", got, n+3)
	}
	if got := len(flatten(walk(t, cs2))); got != n {
		t.Errorf("the other server lists %d tools, want %d", got, n)
	}
	call(t, cs1, "note_add", map[string]any{"text": "only here"})
	if notes, _ := structured(t, call(t, cs2, "note_list", nil))["notes"].([]any); len(notes) != 0 {
		t.Errorf("a note written on one server shows on another: %v", notes)
	}
}
