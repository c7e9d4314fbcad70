package session

import (
	"reflect"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	sjson "github.com/segmentio/encoding/json"
)

// TestSDKToolsMirrorsTheSDK: sdkTools has the fields mcp.ListToolsResult
// decodes (embedded ones included), by JSON name, each of the same kind,
// with anyJSON where the SDK has `any` and anyObject where it has a map of
// them; and so on down through the tools, their annotations and icons. A
// new SDK field that the mirror lacks would let a page through that the
// SDK refuses.
func TestSDKToolsMirrorsTheSDK(t *testing.T) {
	t.Parallel()
	mirrors(t, "ListToolsResult", reflect.TypeFor[mcp.ListToolsResult](), reflect.TypeFor[sdkTools]())
}

// mirrors compares the decoded fields of sdk and ours, by JSON name.
func mirrors(t *testing.T, path string, sdk, ours reflect.Type) {
	t.Helper()
	want, got := jsonFields(sdk), jsonFields(ours)
	for name, sf := range want {
		of, ok := got[name]
		if !ok {
			t.Errorf("%s.%s (%s): missing from the mirror %s", path, name, sf.Type, ours)
			continue
		}
		mirrorsType(t, path+"."+name, sf.Type, of.Type)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s.%s: in the mirror %s, not in the SDK's %s", path, name, ours, sdk)
		}
	}
}

func mirrorsType(t *testing.T, path string, sdk, ours reflect.Type) {
	t.Helper()
	anyType, anyObj := reflect.TypeFor[anyJSON](), reflect.TypeFor[anyObject]()
	if ours == reflect.TypeFor[sdkToolList]() {
		// The list reads each element into one sdkTool.
		ours = reflect.TypeFor[[]sdkTool]()
	}
	switch {
	case sdk.Kind() == reflect.Interface:
		if ours != anyType {
			t.Errorf("%s: the SDK decodes %s, the mirror %s, want anyJSON", path, sdk, ours)
		}
	case sdk.Kind() == reflect.Map:
		if sdk.Key().Kind() != reflect.String || sdk.Elem().Kind() != reflect.Interface || ours != anyObj {
			t.Errorf("%s: the SDK decodes %s, the mirror %s, want anyObject for a map[string]any", path, sdk, ours)
		}
	case sdk.Kind() == reflect.Pointer && sdk.Elem().Kind() == reflect.Struct:
		// A pointer to a struct and the struct decode the same values.
		if ours.Kind() == reflect.Pointer {
			ours = ours.Elem()
		}
		mirrorsType(t, path, sdk.Elem(), ours)
	case sdk.Kind() == reflect.Struct:
		if ours.Kind() != reflect.Struct {
			t.Errorf("%s: the SDK decodes %s, the mirror %s", path, sdk, ours)
			return
		}
		mirrors(t, path, sdk, ours)
	case sdk.Kind() == reflect.Slice:
		if ours.Kind() != reflect.Slice {
			t.Errorf("%s: the SDK decodes %s, the mirror %s", path, sdk, ours)
			return
		}
		mirrorsType(t, path+"[]", sdk.Elem(), ours.Elem())
	case sdk.Kind() == reflect.Pointer:
		if ours.Kind() != reflect.Pointer || ours.Elem().Kind() != sdk.Elem().Kind() {
			t.Errorf("%s: the SDK decodes %s, the mirror %s", path, sdk, ours)
		}
	default:
		if sdk.Kind() != ours.Kind() {
			t.Errorf("%s: the SDK decodes %s (%s), the mirror %s (%s)", path, sdk, sdk.Kind(), ours, ours.Kind())
		}
	}
}

// jsonFields are the fields of struct type st that JSON decodes, by name,
// the fields of embedded structs without a name of their own included.
func jsonFields(st reflect.Type) map[string]reflect.StructField {
	fields := map[string]reflect.StructField{}
	for f := range st.Fields() {
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for n, ef := range jsonFields(f.Type) {
				fields[n] = ef
			}
			continue
		}
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f
	}
	return fields
}

// TestSDKToolsAcceptsOnlyWhatTheSDKAccepts: the mirror takes the pages the
// SDK takes without its maps, and never takes one the SDK refuses (a value
// of the wrong type anywhere, a number beyond float64 in a schema or in
// _meta).
func TestSDKToolsAcceptsOnlyWhatTheSDKAccepts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		page   string
		accept bool // the mirror tells alone
	}{
		{`{"tools":[]}`, true},
		{`{"tools":null}`, true},
		{`{}`, true},
		{`{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"number","maximum":1e300,"minimum":-12.5e-3}}}}],"nextCursor":"c","ttlMs":0,"cacheScope":"public","resultType":"complete","_meta":{"k":[1,2,{"n":null}]}}`, true},
		{`{"tools":[{"name":"a","title":"A","description":"d \"q\" 1e999","inputSchema":{"enum":["1e999"]},"outputSchema":null,"annotations":{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":null,"title":"t"},"icons":[{"src":"x","sizes":["1x1"],"theme":"dark"}],"_meta":null}]}`, true},
		{`{"tools":[null]}`, true},
		{` { "tools" : [ null , {"name":"b"} ] } `, true},
		{`{"tools":[{"name":"a"},5]}`, false},
		{`{"tools":"x"}`, false},
		{`{"tools":[{"name":"a"},{"name":"b","title":{}}]}`, false},
		{`{"tools":[{"name":"a","annotations":null,"inputSchema":{"default":` + strings.Repeat("9", 400) + `}}]}`, false},
		{`{"tools":[{"name":"a","inputSchema":{"maximum":1e400}}]}`, false},
		{`{"tools":[{"name":"a","inputSchema":{"x":[-1E+999]}}]}`, false},
		{`{"tools":[{"name":"a","_meta":{"big":1e400}}]}`, false},
		{`{"_meta":{"big":1e400},"tools":[]}`, false},
		{`{"_meta":5,"tools":[]}`, false},
		{`{"tools":[{"name":"a","_meta":"x"}]}`, false},
		{`{"tools":[{"name":7}]}`, false},
		{`{"tools":{}}`, false},
		{`{"tools":[5]}`, false},
		{`{"ttlMs":"5","tools":[]}`, false},
		{`{"ttlMs":1.5,"tools":[]}`, false},
		{`{"cacheScope":1,"tools":[]}`, false},
		{`{"nextCursor":{},"tools":[]}`, false},
		{`{"tools":[{"name":"a","annotations":{"readOnlyHint":"yes"}}]}`, false},
		{`{"tools":[{"name":"a","annotations":{"destructiveHint":1}}]}`, false},
		{`{"tools":[{"name":"a","annotations":5}]}`, false},
		{`{"tools":[{"name":"a","icons":{"src":"x"}}]}`, false},
		{`{"tools":[{"name":"a","icons":[{"src":1}]}]}`, false},
		{`{"tools":[{"name":"a","icons":[{"src":"x","sizes":"1x1"}]}]}`, false},
		{`{"tools":[{"name":"a","description":["d"]}]}`, false},
		{`{"resultType":false,"tools":[]}`, false},
	} {
		_, sdkErr := sjson.Parse([]byte(tc.page), new(mcp.ListToolsResult), sjson.DontMatchCaseInsensitiveStructFields|sjson.DontCopyString)
		got := sdkToolsAccepts([]byte(tc.page))
		if got && sdkErr != nil {
			t.Errorf("%s: the mirror accepts a page the SDK refuses (%v)", tc.page, sdkErr)
		}
		if got != tc.accept {
			t.Errorf("%s: the mirror accepts it: %t, want %t (the SDK: %v)", tc.page, got, tc.accept, sdkErr)
		}
		// sdkDecode says what the SDK says, by either path.
		if err := sdkDecode("tools/list", []byte(tc.page)); (err == nil) != (sdkErr == nil) {
			t.Errorf("%s: sdkDecode says %v, the SDK %v", tc.page, err, sdkErr)
		}
	}
}

// BenchmarkSDKDecodeToolsPage: telling whether the SDK takes a page of 100
// tools with schemas, by the mirror and by the SDK's own decode.
func BenchmarkSDKDecodeToolsPage(b *testing.B) {
	var page strings.Builder
	page.WriteString(`{"resultType":"complete","ttlMs":0,"cacheScope":"public","nextCursor":"abc","tools":[`)
	for i := range 100 {
		if i > 0 {
			page.WriteByte(',')
		}
		page.WriteString(`{"name":"filler","description":"Generated filler tool, for paging benchmarks. Echoes its arguments.",` +
			`"inputSchema":{"type":"object","properties":{"value":{"type":"string","description":"anything"},"n":{"type":"number","maximum":1e6}},"required":["value"]},` +
			`"annotations":{"readOnlyHint":true}}`)
	}
	page.WriteString(`]}`)
	raw := []byte(page.String())
	b.Run("mirror", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !sdkToolsAccepts(raw) {
				b.Fatal("refused")
			}
		}
	})
	b.Run("sdk", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := sjson.Parse(raw, new(mcp.ListToolsResult), sjson.DontMatchCaseInsensitiveStructFields|sjson.DontCopyString); err != nil {
				b.Fatal(err)
			}
		}
	})
}
