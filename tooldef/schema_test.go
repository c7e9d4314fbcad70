package tooldef_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/tooldef"
)

func TestSchemaTypesAndPropsKeepTheSchemasOrder(t *testing.T) {
	s := tooldef.ReadSchema(json.RawMessage(`{"type":"object","required":["b"],
		"properties":{"b":{"type":["string","null"]},"a":{"type":["integer","string"]}}}`))
	if got := s.MainType(); got != "object" {
		t.Errorf("MainType = %q, want object", got)
	}
	props := s.Props()
	var names []string
	for _, p := range props {
		names = append(names, p.Name)
	}
	if diff := cmp.Diff([]string{"b", "a"}, names); diff != "" {
		t.Errorf("Props names (-want +got):\n%s", diff)
	}
	if !props[0].Required || props[1].Required {
		t.Errorf("required: b %v, a %v; want b only", props[0].Required, props[1].Required)
	}
	b := tooldef.ReadSchema(props[0].Schema)
	if diff := cmp.Diff([]string{"string", "null"}, b.Types()); diff != "" || b.MainType() != "string" {
		t.Errorf("b: types %v, main %q; want string", b.Types(), b.MainType())
	}
	if a := tooldef.ReadSchema(props[1].Schema); a.MainType() != "" {
		t.Errorf("a has two non-null types, MainType = %q, want \"\"", a.MainType())
	}
	if got := tooldef.ReadSchema(json.RawMessage(`[1]`)); got.MainType() != "" || got.Props() != nil {
		t.Errorf("a schema that is not an object read as %+v", got)
	}
}

func TestFormFieldsOfAFlatSchema(t *testing.T) {
	fields, ok := tooldef.FormFields(json.RawMessage(`{"type":"object","required":["q"],"properties":{
		"q":{"type":"string","description":"what to find"},
		"n":{"type":"integer","default":5},
		"x":{"type":"number"},
		"on":{"type":"boolean"},
		"mode":{"enum":["a","b"]},
		"only":{"const":"c"}}}`))
	if !ok {
		t.Fatal("a flat schema needs the raw editor")
	}
	want := []tooldef.Field{
		{Name: "q", Kind: tooldef.KindText, Required: true, Desc: "what to find"},
		{Name: "n", Kind: tooldef.KindInt, Default: json.RawMessage(`5`)},
		{Name: "x", Kind: tooldef.KindNumber},
		{Name: "on", Kind: tooldef.KindChoice, Choices: []json.RawMessage{json.RawMessage(`true`), json.RawMessage(`false`)}},
		{Name: "mode", Kind: tooldef.KindChoice, Choices: []json.RawMessage{json.RawMessage(`"a"`), json.RawMessage(`"b"`)}},
		{Name: "only", Kind: tooldef.KindChoice, Choices: []json.RawMessage{json.RawMessage(`"c"`)}},
	}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("FormFields (-want +got):\n%s", diff)
	}
	for _, raw := range []string{
		`{"type":"array"}`,
		`{"$ref":"#/$defs/x"}`,
		`{"properties":{"o":{"type":"object"}}}`,
		`{"properties":{"e":{"enum":[{"a":1}]}}}`,
		`{"properties":{"u":{"anyOf":[{"type":"string"}]}}}`,
	} {
		if _, ok := tooldef.FormFields(json.RawMessage(raw)); ok {
			t.Errorf("FormFields(%s) is a simple form; want the raw editor", raw)
		}
	}
}

func TestSkeletonHoldsRequiredAndDefaults(t *testing.T) {
	got := tooldef.Skeleton(json.RawMessage(`{"type":"object","required":["s","o","e"],"properties":{
		"s":{"type":"string"},"skip":{"type":"string"},"d":{"type":"integer","default":3},
		"e":{"enum":["x","y"]},
		"o":{"type":"object","required":["b","a"],"properties":{"b":{"type":"boolean"},"a":{"type":"array"}}}}}`))
	want := "{\n  \"s\": \"\",\n  \"d\": 3,\n  \"e\": \"x\",\n  \"o\": {\n    \"b\": false,\n    \"a\": []\n  }\n}"
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("Skeleton (-want +got):\n%s", diff)
	}
	if got := tooldef.Skeleton(json.RawMessage(`{"properties":{"bad":{"default":}}}`)); string(got) != "{}" {
		t.Errorf("Skeleton of a broken schema = %s, want {}", got)
	}
}

func TestObject(t *testing.T) {
	got := tooldef.Object([]tooldef.Member{{Name: "z", Value: json.RawMessage(`1`)}, {Name: `a"b`, Value: json.RawMessage(`"x"`)}})
	if want := `{"z":1,"a\"b":"x"}`; string(got) != want {
		t.Errorf("Object = %s, want %s", got, want)
	}
}
