package checks

import (
	"sync"
	"testing"
)

// What Warm compiles does compile, and its two instances take both ways
// through a check: a schema that did not compile would warm nothing but
// the error path.
func TestWarmSchemaPassesOneInstanceAndFailsTheOther(t *testing.T) {
	v := NewValidator()
	errs, err := v.Validate(warmSchema, warmInstances[0])
	if err != nil || len(errs) != 0 {
		t.Fatalf("first instance: %v %v, want it to pass", errs, err)
	}
	errs, err = v.Validate(warmSchema, warmInstances[1])
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	for _, e := range errs {
		failed[e.Keyword] = true
	}
	for _, k := range []string{"minimum", "enum", "additionalProperties"} {
		if !failed[k] {
			t.Errorf("second instance did not fail %s: %+v", k, errs)
		}
	}
}

// Warm may run beside the checks it warms, from several goroutines, and
// changes none of their verdicts (run with -race).
func TestWarmBesideChecks(t *testing.T) {
	schema := []byte(`{"type":"object","properties":{"a":{"type":"number"}},"required":["a"]}`)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(Warm)
		wg.Go(func() {
			errs, err := NewValidator().Validate(schema, []byte(`{"a":"x"}`))
			if err != nil || len(errs) != 1 || errs[0].Keyword != "type" {
				t.Errorf("got %+v %v, want one type error", errs, err)
			}
		})
	}
	wg.Wait()
}
