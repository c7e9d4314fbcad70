package tooldef

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFormFieldsReadTitledChoices(t *testing.T) {
	schema := `{"type":"object","properties":{
		"one":{"type":"string","oneOf":[{"const":"a","title":"A"},{"const":"b"}]},
		"any":{"anyOf":[{"const":1,"title":"One"}]},
		"legacy":{"type":"string","enum":["x","y"],"enumNames":["Ex","Why"]},
		"plain":{"type":"string","enum":["p","q"]},
		"many":{"type":"array","items":{"type":"string","enum":["m","n"]}},
		"manyTitled":{"type":"array","items":{"anyOf":[{"const":"t","title":"Tee"}]}}}}`
	fields, ok := FormFields(json.RawMessage(schema))
	if !ok {
		t.Fatal("a flat schema of choices needs no raw editor")
	}
	got := map[string][]string{}
	for _, f := range fields {
		if want := KindChoice; f.Kind != want && !strings.HasPrefix(f.Name, "many") || strings.HasPrefix(f.Name, "many") && f.Kind != KindMulti {
			t.Errorf("%s: kind %s", f.Name, f.Kind)
		}
		for i, c := range f.Choices {
			title := ""
			if i < len(f.Titles) {
				title = f.Titles[i]
			}
			got[f.Name] = append(got[f.Name], string(c)+"="+title)
		}
	}
	want := map[string][]string{
		"one":        {`"a"=A`, `"b"=`},
		"any":        {`1=One`},
		"legacy":     {`"x"=Ex`, `"y"=Why`},
		"plain":      {`"p"=`, `"q"=`},
		"many":       {`"m"=`, `"n"=`},
		"manyTitled": {`"t"=Tee`},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("choices (-want +got):\n%s", d)
	}
	// A oneOf of anything but consts still needs the raw editor.
	for _, s := range []string{
		`{"type":"object","properties":{"x":{"oneOf":[{"const":"a"},{"type":"string"}]}}}`,
		`{"type":"object","properties":{"x":{"oneOf":[{"const":{"k":1}}]}}}`,
		`{"type":"object","properties":{"x":{"oneOf":[{"const":"a"}],"anyOf":[{"const":"b"}]}}}`,
		`{"type":"object","properties":{"x":{"type":"array","items":{"type":"string"}}}}`,
	} {
		if _, ok := FormFields(json.RawMessage(s)); ok {
			t.Errorf("%s: read as a form", s)
		}
	}
}
