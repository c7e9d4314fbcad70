package hostiletest

// The modes of testdata/hostile/protocol.go.
const (
	// ModeStrayAnswers writes, before each tools/list and tools/call answer,
	// four answers that match no request in flight: an error with id null,
	// one with the real id plus 0.5, one with an id never used, and {}.
	ModeStrayAnswers = "stray-answers"
	// ModeDeepSchema lists, on page 1, a tool "deep" whose outputSchema nests
	// HOSTILE_DEPTH levels deep (environment variable, default 10000).
	ModeDeepSchema = "deep-schema"
	// ModeServerRequests lists "capabilities" (answers what the client
	// declared), "ask" (sends arguments.method to the client and answers
	// its raw answer) and "flood" (sends arguments.method
	// arguments.count times at once, and answers when they are out).
	ModeServerRequests = "server-requests"
	// ModeAnswerOnCancel holds each tools/call until the client cancels it,
	// then answers it all the same.
	ModeAnswerOnCancel = "answer-on-cancel"
	// ModeHangSetLevel declares logging and never answers logging/setLevel.
	ModeHangSetLevel = "hang-setlevel"
)
