package tooldef

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Coerce turns text typed for a value of JSON Schema type typ (a k=v
// argument on the command line, a field of the call editor) into JSON.
// Spaces around a number or a boolean are dropped. A number written as
// JSON writes it is sent as typed, digit for digit; one strconv reads
// otherwise ("+5", "007", ".5") is sent as JSON writes it. An integer is a
// number with no fraction ("1e3" is one). A boolean is what
// strconv.ParseBool reads. An object or array is JSON as typed. Text for
// no known type is JSON if it parses, else a string. Text that is not of
// its type comes back as a JSON string, with an error saying what the
// type wants: the arguments still hold it, and the input check judges it
// as it would the same string given as JSON.
func Coerce(typ, text string) (json.RawMessage, error) {
	t := strings.TrimSpace(text)
	switch typ {
	case "string":
		return quote(text), nil
	case "integer":
		if n, err := strconv.ParseInt(t, 10, 64); err == nil {
			return strconv.AppendInt(nil, n, 10), nil
		}
		if v, f, ok := number(t); ok && f == math.Trunc(f) {
			return v, nil
		}
		return quote(text), fmt.Errorf("wants an integer, not %q", text)
	case "number":
		if v, _, ok := number(t); ok {
			return v, nil
		}
		return quote(text), fmt.Errorf("wants a number, not %q", text)
	case "boolean":
		if b, err := strconv.ParseBool(t); err == nil {
			return json.RawMessage(strconv.FormatBool(b)), nil
		}
		return quote(text), fmt.Errorf("wants true or false, not %q", text)
	case "object", "array":
		if json.Valid([]byte(text)) {
			return json.RawMessage(text), nil
		}
		return quote(text), fmt.Errorf("wants JSON (%s), not %q", typ, text)
	}
	if json.Valid([]byte(text)) {
		return json.RawMessage(text), nil
	}
	return quote(text), nil
}

// number reads t as a finite number: as typed if it is a JSON number,
// else as JSON writes what strconv.ParseFloat reads (never NaN or an
// infinity, which JSON has no number for).
func number(t string) (json.RawMessage, float64, bool) {
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, 0, false
	}
	if b, err := json.Marshal(json.Number(t)); err == nil {
		return b, f, true
	}
	b, err := json.Marshal(f)
	return b, f, err == nil
}

// quote is text as a JSON string.
func quote(text string) json.RawMessage {
	b, _ := json.Marshal(text)
	return b
}
