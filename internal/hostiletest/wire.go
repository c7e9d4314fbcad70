package hostiletest

// The modes of testdata/hostile/wire.go: bytes and processes.
const (
	ModeHugeFrame         = "huge-frame"
	ModeHugeStderrLine    = "huge-stderr-line"
	ModeBadVersion        = "bad-version"
	ModeHangInit          = "hang-init"
	ModeBadInitFrame      = "bad-init-frame"
	ModePanicDeep         = "panic-deep"
	ModeNodeMissingModule = "node-missing-module"
	ModeDetach            = "detach"
	ModeIgnoreTerm        = "ignore-term"
	ModeHTTPHugeJSON      = "http-huge-json"
	ModeHTTPHugeSSE       = "http-huge-sse"
)
