package hostiletest

// The modes of testdata/hostile/lists.go: prompts, resources and templates
// listed in -pages pages of -page-size items, and requests about them
// misbehaving.
const (
	// ModeListsPaged lists prompt_P_I (one required argument "x"),
	// hostile://r/P/I and hostile://t/P/I/{x} in pages, cursors "c1", "c2", ….
	ModeListsPaged = "lists-paged"
	// ModeListsLoop pages those lists 1 → "A" → "B" → "A".
	ModeListsLoop = "lists-loop"
	// ModeListsEndless names a fresh cursor on every page of those lists.
	ModeListsEndless = "lists-endless"
	// ModeHangRequests never answers resources/read, prompts/get or
	// completion/complete.
	ModeHangRequests = "hang-requests"
	// ModeBadAnswers answers resources/read with an item that has no uri
	// and neither text nor blob, prompts/get with a message of role
	// "system", and completion/complete with 101 values.
	ModeBadAnswers = "bad-answers"
	// ModeHeavyMarkdown answers every resources/read with text/markdown of
	// 5,000 emphasis openers closed in reverse (some 30 KB): the nesting
	// that costs a Markdown renderer most.
	ModeHeavyMarkdown = "heavy-markdown"
	// ModePromptsChanged answers prompts/get with one user message, and
	// sends notifications/prompts/list_changed before the answer for
	// prompt_1_1, after it for prompt_1_2.
	ModePromptsChanged = "prompts-changed"
)
