package finding

// Status is the outcome of one check.
type Status string

// The verdict statuses.
const (
	Pass      Status = "pass"
	Fail      Status = "fail"
	Refused   Status = "refused"
	Unchecked Status = "unchecked"
	Skipped   Status = "skipped"
)

// The check names.
const (
	TaskSupport       = "task-support"
	StructuredContent = "structured-content"
	OutputSchema      = "output-schema"
	InputSchema       = "input-schema"
)

// SchemaError is one schema validation failure.
type SchemaError struct {
	InstancePath string `json:"instancePath"` // JSON pointer into the instance, "" for the root
	Keyword      string `json:"keyword"`
	Message      string `json:"message"`
}

// Verdict is the outcome of one check.
type Verdict struct {
	Check   string        `json:"check"`
	Status  Status        `json:"status"`
	Message string        `json:"message"`
	Errors  []SchemaError `json:"errors,omitempty"`
}
