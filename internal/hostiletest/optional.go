package hostiletest

// The modes of testdata/hostile/optional.go: see that file for each one's
// exact behaviour.
const (
	// ModeNoTemplates answers resources/templates/list with -32601.
	ModeNoTemplates = "no-templates"
	// ModeListChangedOnce says the tool list changed during the first
	// tools/list walk only.
	ModeListChangedOnce = "list-changed-once"
	// ModeChattyInit writes ChattyInitLine and one more line of text to
	// stdout and never answers initialize.
	ModeChattyInit = "chatty-init"
	// ChattyInitLine is the first line chatty-init writes to stdout.
	ChattyInitLine = "Server starting on stdio..."
)
