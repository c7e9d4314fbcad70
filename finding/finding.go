// Package finding holds what is worth saying about what a server showed:
// a [Finding] about a walk's cursor health, a listed tool's definition or a
// call's circumstances, and a [Verdict] of one check around a call.
//
// It sits at the bottom of the module and imports nothing of ours, so
// that paging, checks, session and every reader of a recording can speak
// of one [Finding] and one [Verdict] without pulling in a schema validator.
package finding

// Severity says how much a [Finding] matters.
type Severity string

// The severities of a [Finding].
const (
	// SeverityError: a client would fail or refuse, or data is lost.
	SeverityError Severity = "error"
	// SeverityWarning: something a client may stumble on.
	SeverityWarning Severity = "warning"
	// SeverityInfo: worth knowing, not wrong.
	SeverityInfo Severity = "info"
)

// Finding is one observation: which check saw it, how much it matters and
// what was seen, with the item or page it is about when there is one.
type Finding struct {
	// Check names what was observed, such as "cursor-repeated" or
	// "tool-name"; the package that makes the finding lists its checks.
	Check string `json:"check"`
	// Severity is [SeverityError], [SeverityWarning] or [SeverityInfo].
	Severity Severity `json:"severity"`
	// Message says what was seen, naming pages, cursors, tools and keys.
	Message string `json:"message"`
	// Item is the name of the item the finding is about, when there is one.
	Item string `json:"item,omitempty"`
	// Page is the number of the page the finding is about, when there is one.
	Page int `json:"page,omitempty"`
}

// Count says how many of fs have severity sev.
func Count(fs []Finding, sev Severity) int {
	n := 0
	for _, f := range fs {
		if f.Severity == sev {
			n++
		}
	}
	return n
}
