package checks

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkValidateOutput100Fields measures validating structured content
// of 100 fields against an output schema compiled on an earlier call.
func BenchmarkValidateOutput100Fields(b *testing.B) {
	schema, instance := hundredFields()
	v := NewValidator()
	if errs, err := v.Validate(schema, instance); err != nil || errs != nil {
		b.Fatalf("setup: errs %v, err %v", errs, err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if errs, err := v.Validate(schema, instance); err != nil || errs != nil {
			b.Fatalf("errs %v, err %v", errs, err)
		}
	}
}

// hundredFields returns an object schema of 100 typed, required properties
// and an instance that matches it.
func hundredFields() (schema, instance json.RawMessage) {
	var props, required, values []string
	for i := range 100 {
		name := fmt.Sprintf("field%02d", i)
		var p, val string
		switch i % 5 {
		case 0:
			p, val = `{"type":"string","minLength":1}`, `"value"`
		case 1:
			p, val = `{"type":"integer","minimum":0}`, fmt.Sprint(i)
		case 2:
			p, val = `{"type":"number"}`, `1.5`
		case 3:
			p, val = `{"type":"boolean"}`, `true`
		case 4:
			p, val = `{"type":"array","items":{"type":"string"}}`, `["a","b"]`
		}
		props = append(props, fmt.Sprintf("%q:%s", name, p))
		required = append(required, fmt.Sprintf("%q", name))
		values = append(values, fmt.Sprintf("%q:%s", name, val))
	}
	schema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":[` +
		strings.Join(required, ",") + `],"properties":{` + strings.Join(props, ",") + `}}`)
	instance = json.RawMessage(`{` + strings.Join(values, ",") + `}`)
	return schema, instance
}
