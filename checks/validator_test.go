package checks

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"mcpwitness/finding"
)

// orderSchema is a nested schema used by several tests.
const orderSchema = `{
	"type": "object",
	"required": ["id", "items"],
	"additionalProperties": false,
	"properties": {
		"id": {"type": "string"},
		"note": {"type": "string", "maxLength": 5},
		"items": {
			"type": "array",
			"items": {
				"type": "object",
				"required": ["sku", "price"],
				"properties": {
					"sku": {"type": "string", "pattern": "^[A-Z]+-[0-9]+$"},
					"price": {"type": "number", "minimum": 0},
					"a/b~c": {"type": "string"},
					"tags": {"type": "array", "items": {"type": "string"}}
				}
			}
		},
		"customer": {"$ref": "#/$defs/customer"}
	},
	"$defs": {
		"customer": {
			"type": "object",
			"properties": {"address": {"type": "object", "properties": {"zip": {"type": "string", "minLength": 5}}}}
		}
	}
}`

func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name     string
		schema   string
		instance string
		want     []finding.SchemaError
	}{
		{
			name:     "valid",
			schema:   orderSchema,
			instance: `{"id":"o1","items":[{"sku":"AB-1","price":2,"tags":["x"]}],"customer":{"address":{"zip":"12345"}}}`,
		},
		{
			name:   "nested objects and arrays give absolute paths",
			schema: orderSchema,
			instance: `{"id":"o1","note":"too long","extra":true,"items":[
				{"sku":"AB-1","price":1},
				{"sku":"AB-2","price":2,"tags":["ok", 7]},
				{"sku":"bad","price":-1,"a/b~c":3},
				{"price":4}
			],"customer":{"address":{"zip":"1"}}}`,
			want: []finding.SchemaError{
				{InstancePath: "/customer/address/zip", Keyword: "minLength", Message: "Value should be at least 5 characters"},
				{InstancePath: "/extra", Keyword: "additionalProperties", Message: "Additional property 'extra' is not allowed"},
				{InstancePath: "/items/1/tags/1", Keyword: "type", Message: "Value is integer but should be string"},
				{InstancePath: "/items/2/a~1b~0c", Keyword: "type", Message: "Value is integer but should be string"},
				{InstancePath: "/items/2/price", Keyword: "minimum", Message: "-1 should be at least 0"},
				{InstancePath: "/items/2/sku", Keyword: "pattern", Message: "Value does not match the required pattern ^[A-Z]+-[0-9]+$"},
				{InstancePath: "/items/3", Keyword: "required", Message: "Required property 'sku' is missing"},
				{InstancePath: "/note", Keyword: "maxLength", Message: "Value should be at most 5 characters"},
			},
		},
		{
			name:     "a missing required property is reported once, at its parent",
			schema:   orderSchema,
			instance: `{"items":[]}`,
			want: []finding.SchemaError{
				{InstancePath: "", Keyword: "required", Message: "Required property 'id' is missing"},
			},
		},
		{
			name:     "array indexes sort numerically",
			schema:   `{"type":"array","items":{"type":"integer"}}`,
			instance: `[0,0,"a",0,0,0,0,0,0,0,"b"]`,
			want: []finding.SchemaError{
				{InstancePath: "/2", Keyword: "type", Message: "Value is string but should be integer"},
				{InstancePath: "/10", Keyword: "type", Message: "Value is string but should be integer"},
			},
		},
		{
			name:     "root type mismatch",
			schema:   orderSchema,
			instance: `[1]`,
			want:     []finding.SchemaError{{InstancePath: "", Keyword: "type", Message: "Value is array but should be object"}},
		},
		{
			name:     "anyOf that fails reports itself and each branch",
			schema:   `{"properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer","minimum":10}]}}}`,
			instance: `{"v":3}`,
			want: []finding.SchemaError{
				{InstancePath: "/v", Keyword: "anyOf", Message: "Value does not match anyOf schema"},
				{InstancePath: "/v", Keyword: "minimum", Message: "3 should be at least 10"},
				{InstancePath: "/v", Keyword: "type", Message: "Value is integer but should be string"},
			},
		},
		{
			name:     "branches of an anyOf that passed are not errors",
			schema:   `{"properties":{"v":{"anyOf":[{"type":"string"},{"type":"integer"}],"minimum":10}}}`,
			instance: `{"v":3}`,
			want:     []finding.SchemaError{{InstancePath: "/v", Keyword: "minimum", Message: "3 should be at least 10"}},
		},
		{
			name:     "branches of a oneOf that passed are not errors",
			schema:   `{"oneOf":[{"type":"string"},{"type":"integer"}],"maximum":1}`,
			instance: `3`,
			want:     []finding.SchemaError{{InstancePath: "", Keyword: "maximum", Message: "3 should be at most 1"}},
		},
		{
			name:     "a failing if is not an error; a failing else is",
			schema:   `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`,
			instance: `{"k":"z"}`,
			want: []finding.SchemaError{
				{InstancePath: "", Keyword: "else", Message: "Value fails the 'if' condition and does not match the 'else' schema"},
				{InstancePath: "", Keyword: "required", Message: "Required property 'b' is missing"},
			},
		},
		{
			name:     "not",
			schema:   `{"properties":{"v":{"not":{"type":"string"}}}}`,
			instance: `{"v":"s"}`,
			want:     []finding.SchemaError{{InstancePath: "/v", Keyword: "not", Message: "Value should not match the not schema"}},
		},
		{
			name:     "dependentSchemas apply to the whole object",
			schema:   `{"dependentSchemas":{"card":{"required":["billing"]}}}`,
			instance: `{"card":"1234"}`,
			want:     []finding.SchemaError{{InstancePath: "", Keyword: "required", Message: "Required property 'billing' is missing"}},
		},
		{
			name:     "propertyNames name the property",
			schema:   `{"propertyNames":{"maxLength":3}}`,
			instance: `{"ok":1,"toolong":2}`,
			want: []finding.SchemaError{{InstancePath: "/toolong", Keyword: "maxLength",
				Message: "Property name 'toolong': Value should be at most 3 characters"}},
		},
		{
			name:     "patternProperties",
			schema:   `{"patternProperties":{"^n_":{"type":"number"}}}`,
			instance: `{"n_x":"s","other":"s"}`,
			want:     []finding.SchemaError{{InstancePath: "/n_x", Keyword: "type", Message: "Value is string but should be number"}},
		},
		{
			name:     "unevaluatedProperties false",
			schema:   `{"allOf":[{"properties":{"a":{}}}],"unevaluatedProperties":false}`,
			instance: `{"a":1,"b":2}`,
			want:     []finding.SchemaError{{InstancePath: "/b", Keyword: "unevaluatedProperties", Message: "Unevaluated property 'b' is not allowed"}},
		},
		{
			name:     "items false after prefixItems",
			schema:   `{"prefixItems":[{"type":"string"}],"items":false}`,
			instance: `["a",1]`,
			want:     []finding.SchemaError{{InstancePath: "/1", Keyword: "items", Message: "Item at index 1 is not allowed"}},
		},
		{
			name:     "a property whose schema is false",
			schema:   `{"properties":{"secret":false}}`,
			instance: `{"secret":1}`,
			want:     []finding.SchemaError{{InstancePath: "/secret", Keyword: "properties", Message: "Property 'secret' is not allowed"}},
		},
		{
			name:     "recursive $ref keeps absolute paths",
			schema:   `{"type":"object","properties":{"n":{"$ref":"#"}},"additionalProperties":false}`,
			instance: `{"n":{"n":{"n":{"z":1}}}}`,
			want:     []finding.SchemaError{{InstancePath: "/n/n/n/z", Keyword: "additionalProperties", Message: "Additional property 'z' is not allowed"}},
		},
		{
			name:     "allOf reports each branch's own errors",
			schema:   `{"allOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}}}]}`,
			instance: `{"b":1}`,
			want: []finding.SchemaError{
				{InstancePath: "", Keyword: "required", Message: "Required property 'a' is missing"},
				{InstancePath: "/b", Keyword: "type", Message: "Value is integer but should be string"},
			},
		},
		{
			name:     "false schema",
			schema:   `false`,
			instance: `{}`,
			want:     []finding.SchemaError{{InstancePath: "", Keyword: "schema", Message: "No values are allowed because the schema is set to 'false'"}},
		},
		{
			name:     "true schema",
			schema:   `true`,
			instance: `{"anything":[1,2]}`,
		},
		{
			name:     "instance is not JSON",
			schema:   `{}`,
			instance: `{"a":`,
			want:     []finding.SchemaError{{Keyword: "json", Message: "Value is not valid JSON: unexpected EOF"}},
		},
		{
			name:     "known formats are asserted",
			schema:   `{"properties":{"at":{"type":"string","format":"date-time"}}}`,
			instance: `{"at":"yesterday"}`,
			want:     []finding.SchemaError{{InstancePath: "/at", Keyword: "format", Message: "Value does not match format 'date-time'"}},
		},
		{
			name:     "unknown formats are ignored",
			schema:   `{"properties":{"at":{"type":"string","format":"x-house-style"}}}`,
			instance: `{"at":"anything"}`,
		},
		{
			name:     "integers beyond float64 stay exact",
			schema:   `{"type":"integer","maximum":9007199254740992}`,
			instance: `9007199254740993`,
			want:     []finding.SchemaError{{InstancePath: "", Keyword: "maximum", Message: "9007199254740993 should be at most 9007199254740992"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NewValidator().Validate(json.RawMessage(tt.schema), json.RawMessage(tt.instance))
			if err != nil {
				t.Fatalf("Validate: unexpected error %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Validate errors (-want +got):\n%s", diff)
			}
		})
	}
}

func TestValidateUnchecked(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		reason string // a substring of UncheckedError.Reason
	}{
		{"empty", ``, "the schema is empty"},
		{"not JSON", `{"type":`, "not valid JSON"},
		{"null", `null`, "JSON null, not an object or a boolean"},
		{"array", `[{"type":"string"}]`, "JSON array, not an object or a boolean"},
		{"number", `5`, "JSON number"},
		{"bad keyword value", `{"type":5}`, "does not compile"},
		{"bad regex", `{"properties":{"s":{"pattern":"("}}}`, "does not compile"},
		{"unresolved pointer", `{"$ref":"#/$defs/missing"}`, `$ref "#/$defs/missing" does not resolve`},
		{"unresolved anchor", `{"properties":{"a":{"$ref":"#nowhere"}}}`, `$ref "#nowhere" does not resolve`},
		{"relative document", `{"items":{"$ref":"other.json"}}`, `$ref "other.json" does not resolve`},
		{"nested in $defs and anyOf", `{"$defs":{"x":{"anyOf":[{"$ref":"urn:a"},{"$ref":"urn:b"}]}}}`, `$ref "urn:a", "urn:b" do`},
		{"remote", `{"$ref":"https://example.com/schema.json"}`, "never fetched"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewValidator()
			for range 2 { // the second call answers from the cache
				errs, err := v.Validate(json.RawMessage(tt.schema), json.RawMessage(`{"a":1}`))
				if errs != nil {
					t.Errorf("Validate returned errors %v with an unchecked schema", errs)
				}
				u, ok := errors.AsType[*UncheckedError](err)
				if !ok {
					t.Fatalf("Validate error = %v, want *UncheckedError", err)
				}
				if !strings.Contains(u.Reason, tt.reason) {
					t.Errorf("Reason = %q, want it to contain %q", u.Reason, tt.reason)
				}
			}
		})
	}
}

// Two tools may declare the same $id with different content; each must be
// judged by its own.
func TestValidateSameIDDifferentSchemas(t *testing.T) {
	a := json.RawMessage(`{"$id":"https://example.com/result","type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`)
	b := json.RawMessage(`{"$id":"https://example.com/result","type":"object","required":["b"],"properties":{"b":{"type":"number"}}}`)
	v := NewValidator()
	for round := range 2 {
		if errs, err := v.Validate(a, json.RawMessage(`{"a":"x"}`)); err != nil || errs != nil {
			t.Errorf("round %d: schema a on its own instance: errs %v, err %v", round, errs, err)
		}
		if errs, err := v.Validate(b, json.RawMessage(`{"b":1}`)); err != nil || errs != nil {
			t.Errorf("round %d: schema b on its own instance: errs %v, err %v", round, errs, err)
		}
		errs, err := v.Validate(b, json.RawMessage(`{"a":"x"}`))
		want := []finding.SchemaError{{Keyword: "required", Message: "Required property 'b' is missing"}}
		if err != nil || !cmp.Equal(errs, want) {
			t.Errorf("round %d: schema b on a's instance: errs %v, err %v; want %v", round, errs, err, want)
		}
	}
	if n := len(v.schemas); n != 2 {
		t.Errorf("cache holds %d schemas, want 2", n)
	}
}

// A $ref to another tool's $id must not resolve, whichever was seen first:
// a verdict depends on the schema and instance only.
func TestValidateNoCrossSchemaRefs(t *testing.T) {
	target := json.RawMessage(`{"$id":"https://example.com/shared","type":"string"}`)
	user := json.RawMessage(`{"$ref":"https://example.com/shared"}`)
	for _, targetFirst := range []bool{true, false} {
		v := NewValidator()
		if targetFirst {
			_, _ = v.Validate(target, json.RawMessage(`"x"`))
		}
		_, err := v.Validate(user, json.RawMessage(`5`))
		if _, ok := errors.AsType[*UncheckedError](err); !ok {
			t.Errorf("target seen first %v: err = %v, want *UncheckedError", targetFirst, err)
		}
	}
}

// Schemas come from the server under inspection; nothing in them may cause a
// request.
func TestValidateMakesNoRequests(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"type":"string"}`)
	}))
	defer srv.Close()

	unchecked := []string{
		`{"$ref":"` + srv.URL + `/s.json"}`,
		`{"properties":{"a":{"$ref":"` + srv.URL + `/a.json#/$defs/x"}}}`,
		`{"$id":"` + srv.URL + `/root.json","items":{"$ref":"item.json"}}`,
		`{"$dynamicRef":"` + srv.URL + `/d.json#meta"}`,
	}
	for _, s := range unchecked {
		_, err := NewValidator().Validate(json.RawMessage(s), json.RawMessage(`{"a":1}`))
		if _, ok := errors.AsType[*UncheckedError](err); !ok {
			t.Errorf("schema %s: err = %v, want *UncheckedError", s, err)
		}
	}
	// A $schema naming an unknown meta-schema is not fetched either.
	if _, err := NewValidator().Validate(json.RawMessage(`{"$schema":"`+srv.URL+`/meta","type":"object"}`), json.RawMessage(`{}`)); err != nil {
		t.Errorf("custom $schema: %v", err)
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("schema server got %d requests, want 0", n)
	}
}

func TestValidateConcurrent(t *testing.T) {
	schemas := []json.RawMessage{
		json.RawMessage(orderSchema),
		json.RawMessage(`{"patternProperties":{"^n_":{"type":"number"}},"additionalProperties":{"type":"string","pattern":"^[a-z]+$"}}`),
		json.RawMessage(`{"$ref":"#/nope"}`),
	}
	instances := []json.RawMessage{
		json.RawMessage(`{"id":"o","items":[{"sku":"bad","price":-1}]}`),
		json.RawMessage(`{"n_1":"x","s":"ABC"}`),
		json.RawMessage(`{}`),
	}
	v := NewValidator()
	want := make([]string, len(schemas))
	for i := range schemas {
		want[i] = outcome(NewValidator().Validate(schemas[i], instances[i]))
	}
	var wg sync.WaitGroup
	for g := range 32 {
		wg.Go(func() {
			for j := range 50 {
				i := (g + j) % len(schemas)
				if got := outcome(v.Validate(schemas[i], instances[i])); got != want[i] {
					t.Errorf("schema %d: got %s, want %s", i, got, want[i])
					return
				}
			}
		})
	}
	wg.Wait()
	if n := len(v.schemas); n != len(schemas) {
		t.Errorf("cache holds %d schemas, want %d", n, len(schemas))
	}
}

// outcome renders a Validate answer for comparison.
func outcome(errs []finding.SchemaError, err error) string {
	return fmt.Sprintf("%v %v", errs, err)
}

func TestZeroValidator(t *testing.T) {
	var v Validator
	errs, err := v.Validate(json.RawMessage(`{"type":"string"}`), json.RawMessage(`1`))
	if err != nil || len(errs) != 1 {
		t.Errorf("zero Validator: errs %v, err %v; want one error", errs, err)
	}
}

func TestComparePointers(t *testing.T) {
	ordered := []string{"", "/", "/a", "/a/2", "/a/10", "/a/b", "/b", "/b/0/c"}
	for i := range ordered {
		for j := range ordered {
			got := comparePointers(ordered[i], ordered[j])
			if want := cmpInt(i, j); got != want {
				t.Errorf("comparePointers(%q, %q) = %d, want %d", ordered[i], ordered[j], got, want)
			}
		}
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
