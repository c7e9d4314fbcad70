package checks

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/kaptinlin/jsonschema"
	"mcpwitness/finding"
)

// UncheckedError reports that a schema could not be used to check an
// instance: it is not a schema, it does not compile, or it holds a $ref that
// does not resolve. A check that meets one gives the verdict [finding.Unchecked],
// never a silent pass.
type UncheckedError struct {
	Reason string // what is wrong with the schema, in a sentence fragment
}

// Error implements the error interface.
func (e *UncheckedError) Error() string { return "schema unchecked: " + e.Reason }

// Validator compiles and caches JSON Schemas for one connection. Safe for
// concurrent use. The zero value is ready to use; [NewValidator] is the
// conventional way to get one.
//
// Each distinct schema (by its exact bytes) is compiled once, on first use,
// with a compiler of its own that has no loaders. The library's compiler
// caches schemas by $id and resolves a $ref against every schema it has ever
// compiled, so one compiler shared between schemas would let two tools with
// the same $id share one tool's rules, and would let a $ref in one tool's
// schema resolve or not depending on which other tools had been validated
// first. With a compiler per schema a verdict depends only on the schema and
// the instance, and a $ref that leaves its own document stays unresolved and
// gives [finding.Unchecked].
type Validator struct {
	mu      sync.RWMutex
	schemas map[string]*compiledSchema // keyed by the schema's raw bytes
}

// compiledSchema is one cache entry: compiled once, then used by every
// validation against the same schema bytes.
type compiledSchema struct {
	once   sync.Once
	schema *jsonschema.Schema
	err    *UncheckedError

	// mu serialises evaluation: the library writes compiled regular
	// expressions into the schema while it validates.
	mu sync.Mutex
}

// NewValidator returns an empty [Validator]. Use one per connection: what it
// caches belongs to the schemas of one server.
func NewValidator() *Validator {
	return &Validator{schemas: make(map[string]*compiledSchema)}
}

// Validate validates instance against schema, both raw JSON. It returns every
// validation error, sorted by instance path, or nil when the instance is
// valid. An instance that is not JSON gives one error with keyword "json".
//
// If schema is not a JSON object or boolean, does not compile, or holds a
// $ref that does not resolve, Validate returns an error of type
// *[UncheckedError] and no validation errors. References are never fetched:
// a $ref outside the schema document does not resolve.
func (v *Validator) Validate(schema, instance json.RawMessage) ([]finding.SchemaError, error) {
	c := v.lookup(schema)
	c.once.Do(func() { c.schema, c.err = compile(schema) })
	if c.err != nil {
		return nil, c.err
	}
	inst, err := decodeInstance(instance)
	if err != nil {
		return []finding.SchemaError{{Keyword: "json", Message: "Value is not valid JSON: " + err.Error()}}, nil
	}
	return c.validate(inst)
}

// lookup returns the cache entry for raw, adding an empty one on first use.
func (v *Validator) lookup(raw []byte) *compiledSchema {
	v.mu.RLock()
	c := v.schemas[string(raw)]
	v.mu.RUnlock()
	if c != nil {
		return c
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if c = v.schemas[string(raw)]; c == nil {
		if v.schemas == nil {
			v.schemas = make(map[string]*compiledSchema)
		}
		c = &compiledSchema{}
		v.schemas[string(raw)] = c
	}
	return c
}

// validate evaluates an already decoded instance.
func (c *compiledSchema) validate(inst any) (errs []finding.SchemaError, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			errs, err = nil, &UncheckedError{Reason: fmt.Sprintf("the validator failed on this instance (%v)", r)}
		}
	}()
	res := c.schema.Validate(inst)
	if res.IsValid() {
		return nil, nil
	}
	return schemaErrors(res, inst), nil
}

// compile turns raw schema bytes into a schema ready to validate with, or
// says why it cannot.
func compile(raw []byte) (s *jsonschema.Schema, uerr *UncheckedError) {
	defer func() {
		if r := recover(); r != nil {
			s, uerr = nil, &UncheckedError{Reason: fmt.Sprintf("the schema does not compile (%v)", r)}
		}
	}()
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return nil, &UncheckedError{Reason: "the schema is empty"}
	}
	if Depth(raw) > MaxSchemaDepth {
		return nil, &UncheckedError{Reason: fmt.Sprintf("the schema is nested deeper than %d levels", MaxSchemaDepth)}
	}
	var doc any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, &UncheckedError{Reason: "the schema is not valid JSON: " + err.Error()}
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, &UncheckedError{Reason: fmt.Sprintf("the schema is a JSON %s, not an object or a boolean", jsonKind(doc))}
	}

	c := jsonschema.NewCompiler()
	// Schemas come from the server under inspection: nothing they say may
	// make us fetch anything.
	clear(c.Loaders)
	// Formats are asserted, as the TypeScript SDK's validator does; formats
	// the library does not know are ignored rather than failed, as there.
	c.SetAssertFormat(true)
	for _, name := range unknownFormats(doc) {
		c.RegisterFormat(name, func(any) bool { return true })
	}

	schema, err := c.Compile(raw)
	if err != nil {
		return nil, &UncheckedError{Reason: "the schema does not compile: " + oneLine(err.Error())}
	}
	if refs := schema.UnresolvedReferenceURIs(); len(refs) > 0 {
		slices.Sort(refs)
		refs = slices.Compact(refs)
		quoted := make([]string, len(refs))
		for i, r := range refs {
			quoted[i] = fmt.Sprintf("%q", r)
		}
		return nil, &UncheckedError{Reason: fmt.Sprintf(
			"$ref %s does not resolve (references outside the schema are never fetched)",
			strings.Join(quoted, ", "))}
	}
	return schema, nil
}

// decodeInstance decodes one JSON value, keeping numbers exact.
func decodeInstance(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty input")
		}
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("unexpected data after the JSON value")
	}
	return v, nil
}

// unknownFormats lists the "format" names in a decoded schema that the
// library has no validator for. It looks at every string-valued "format"
// member, including ones inside data such as "default"; registering a no-op
// format for those is harmless.
func unknownFormats(doc any) []string {
	var names []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, m := range v {
				if name, ok := m.(string); ok && k == "format" {
					if _, known := jsonschema.Formats[name]; !known && !slices.Contains(names, name) {
						names = append(names, name)
					}
				}
				walk(m)
			}
		case []any:
			for _, m := range v {
				walk(m)
			}
		}
	}
	walk(doc)
	return names
}

// jsonKind names the JSON type of a value decoded by encoding/json.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64, json.Number:
		return "number"
	case []any:
		return "array"
	default:
		return "object"
	}
}

// oneLine joins a multi-line error message into one line.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ")
}
