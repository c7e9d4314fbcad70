package checks

import (
	"encoding/json"
	"fmt"

	"mcpwitness/finding"
	"mcpwitness/tooldef"
)

// CompletionValues checks a CompleteResult: at most 100 values, strings
// all, and total and hasMore consistent with them.
const CompletionValues = "completion-values"

// MaxCompletionValues is the most values a completion/complete answer may
// hold (specification, server/utilities/completion: "must not exceed 100
// items").
const MaxCompletionValues = 100

// AfterComplete judges a CompleteResult (the raw JSON-RPC result).
func AfterComplete(result json.RawMessage) finding.Verdict {
	var res struct {
		Completion json.RawMessage `json:"completion"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return finding.Verdict{Check: CompletionValues, Status: finding.Fail, Message: "the result is not a JSON object"}
	}
	var c struct {
		Values  json.RawMessage `json:"values"`
		Total   json.RawMessage `json:"total"`
		HasMore json.RawMessage `json:"hasMore"`
	}
	if tooldef.Absent(res.Completion) || json.Unmarshal(res.Completion, &c) != nil {
		return completionFail(finding.SchemaError{InstancePath: "/completion", Keyword: "required", Message: "completion is missing or not an object"})
	}
	var values []string
	if tooldef.Absent(c.Values) || json.Unmarshal(c.Values, &values) != nil {
		return completionFail(finding.SchemaError{InstancePath: "/completion/values", Keyword: "type", Message: "values must be an array of strings"})
	}
	var errs []finding.SchemaError
	if len(values) > MaxCompletionValues {
		errs = append(errs, finding.SchemaError{InstancePath: "/completion/values", Keyword: "maxItems",
			Message: fmt.Sprintf("values must not exceed %d items; the server sent %d", MaxCompletionValues, len(values))})
	}
	var hasMore bool
	if !tooldef.Absent(c.HasMore) && json.Unmarshal(c.HasMore, &hasMore) != nil {
		errs = append(errs, finding.SchemaError{InstancePath: "/completion/hasMore", Keyword: "type", Message: "hasMore must be a boolean"})
	}
	if !tooldef.Absent(c.Total) {
		var total float64
		switch {
		case json.Unmarshal(c.Total, &total) != nil || total != float64(int64(total)) || total < 0:
			errs = append(errs, finding.SchemaError{InstancePath: "/completion/total", Keyword: "type",
				Message: "total must be a whole number, not " + compact(c.Total)})
		case int(total) < len(values):
			errs = append(errs, finding.SchemaError{InstancePath: "/completion/total", Keyword: "minimum",
				Message: fmt.Sprintf("total is %d but %s were sent", int(total), plural(len(values), "value"))})
		case int(total) > len(values) && !hasMore:
			errs = append(errs, finding.SchemaError{InstancePath: "/completion/hasMore", Keyword: "const",
				Message: fmt.Sprintf("total is %d, more than the %s sent, but hasMore is not true", int(total), plural(len(values), "value"))})
		}
	}
	if len(errs) > 0 {
		return finding.Verdict{Check: CompletionValues, Status: finding.Fail, Errors: errs,
			Message: "Completion does not follow the specification: " + summary(errs)}
	}
	return finding.Verdict{Check: CompletionValues, Status: finding.Pass,
		Message: fmt.Sprintf("%s, within the limit of %d", plural(len(values), "value"), MaxCompletionValues)}
}

func completionFail(e finding.SchemaError) finding.Verdict {
	return finding.Verdict{Check: CompletionValues, Status: finding.Fail, Errors: []finding.SchemaError{e},
		Message: "Completion does not follow the specification: " + summary([]finding.SchemaError{e})}
}
