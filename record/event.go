package record

import (
	"encoding/json"
	"time"

	"mcpwitness/finding"
	"mcpwitness/paging"
)

// Kind names what an [Event] records.
type Kind string

// The event kinds of format 1. Readers keep kinds they do not know.
const (
	KindConnect      Kind = "connect"      // the handshake finished; Server holds what was negotiated
	KindWire         Kind = "wire"         // one frame in or out, raw
	KindStderr       Kind = "stderr"       // one line the server wrote to its stderr
	KindListRequest  Kind = "list-request" // a list request went out (Gen and Out after it)
	KindPage         Kind = "page"         // a walk accepted a page
	KindWalk         Kind = "walk"         // a walk started or ended
	KindCall         Kind = "call"         // a tool call started or ended
	KindVerdict      Kind = "verdict"      // one check's verdict on a call
	KindProgress     Kind = "progress"     // a progress notification for a call
	KindNotification Kind = "notification" // a server notification (logging, list_changed, …)
	KindServerCall   Kind = "server-request"
	KindRequest      Kind = "request" // a request other than a list or a tool call started or ended (Request)
	KindError        Kind = "error"   // something failed; Text says what
	KindClosed       Kind = "closed"  // the connection ended
	KindHTTP         Kind = "http"    // an HTTP exchange, a throttle retry or vended headers (HTTP)
	KindAuth         Kind = "auth"    // a step of OAuth (Auth); never a token or a secret
	KindServer       Kind = "server"  // a server of a session of several: Source its names, Target it (redacted)
	KindRestart      Kind = "restart" // the connection is restarted (Restart); a connect event follows when it succeeds
	KindTask         Kind = "task"    // a task's status as the server told it (Task; Data the raw task)
	KindFinding      Kind = "finding" // a finding of check about the server (Finding)
)

// KindInterrupted is a headless command's last event when a signal
// (SIGINT, SIGTERM, SIGHUP) ended it: Text names the signal.
const KindInterrupted Kind = "interrupted"

// Direction of a wire frame.
const (
	Send = "send" // from us to the server
	Recv = "recv" // from the server to us
)

// Event is one entry of the session log. Which fields are set depends on
// Kind; the JSON form is one line of the session file.
type Event struct {
	Seq  int64     `json:"seq"`
	T    time.Time `json:"t"`
	Kind Kind      `json:"kind"`

	// Wire frames: direction, the frame as sent, and what it is.
	Dir    string          `json:"dir,omitempty"`
	Frame  json.RawMessage `json:"frame,omitempty"`
	Method string          `json:"method,omitempty"`
	ID     string          `json:"id,omitempty"`
	Size   int             `json:"size,omitempty"`
	// LatencyMs is, on an answer, the time since its request was sent.
	LatencyMs float64 `json:"latencyMs,omitempty"`

	// Text is a stderr line, an error message, a frame that was not JSON, or
	// a human summary of a notification.
	Text  string `json:"text,omitempty"`
	Level string `json:"level,omitempty"`

	// Gen and Out are the list generation counter right after this event.
	Gen int64 `json:"gen,omitempty"`
	Out int   `json:"out,omitempty"`

	Server   *ServerInfo       `json:"server,omitempty"`
	Walk     *WalkInfo         `json:"walk,omitempty"`
	Page     *paging.Page      `json:"page,omitempty"`
	Items    []json.RawMessage `json:"items,omitempty"`
	Call     *CallInfo         `json:"call,omitempty"`
	Verdict  *finding.Verdict  `json:"verdict,omitempty"`
	Progress *ProgressInfo     `json:"progress,omitempty"`
	Request  *RequestInfo      `json:"request,omitempty"`
	HTTP     *HTTPInfo         `json:"http,omitempty"`
	Auth     *AuthInfo         `json:"auth,omitempty"`
	Restart  *RestartInfo      `json:"restart,omitempty"`
	Task     *TaskInfo         `json:"task,omitempty"`
	// Finding is what a [KindFinding] event found: check's findings are
	// events, so that a record and --ndjson carry each of them.
	Finding *finding.Finding `json:"finding,omitempty"`
	// Data holds the params of a notification or server request.
	Data json.RawMessage `json:"data,omitempty"`
	// Source names the server the event came from, by the names its
	// config entries give it, in a session of several servers (each
	// announced by a [KindServer] event); nil with one.
	Source []string `json:"source,omitempty"`
	// Target is the server a [KindServer] event announces, redacted, with
	// its config identity.
	Target *TargetInfo `json:"target,omitempty"`
}

// ServerInfo is what the handshake told about the server.
type ServerInfo struct {
	Name            string          `json:"name"`
	Version         string          `json:"version"`
	ProtocolVersion string          `json:"protocolVersion"`
	Transport       string          `json:"transport"`
	Target          string          `json:"target"`
	Capabilities    json.RawMessage `json:"capabilities,omitempty"`
	Instructions    string          `json:"instructions,omitempty"`
	// ConfigHash is the hash of the target's configuration identity
	// (see [Identity]), when known.
	ConfigHash string `json:"configHash,omitempty"`
	// AskedProtocol is the version --protocol asked for when the server
	// settled on another (ProtocolVersion); "" when it agreed or none was
	// asked for.
	AskedProtocol string `json:"askedProtocol,omitempty"`
}

// Phase says where in its life a walk or a call was when an event was
// written: the state field of [WalkInfo] and [CallInfo].
type Phase string

// The phases of walks and calls.
const (
	PhaseStart   Phase = "start"   // a walk or a call began
	PhaseRequest Phase = "request" // a walk asks for a page (inside a list-request event)
	PhasePage    Phase = "page"    // a walk accepted a page (inside a page event)
	PhaseVerdict Phase = "verdict" // a check gave a call its verdict (inside a verdict event)
	PhaseDone    Phase = "done"    // a walk or a call ended
)

// WalkInfo describes a walk when it starts ([PhaseStart]), asks for a page
// ([PhaseRequest]), accepts one ([PhasePage]) and ends ([PhaseDone]).
type WalkInfo struct {
	ID int64 `json:"id"`
	// Method is the list method and State the phase; a record leaves out
	// what its event already says, and reading the record puts it back.
	Method     string            `json:"method,omitempty"`
	State      Phase             `json:"state,omitempty"`
	Pages      int               `json:"pages,omitempty"`
	Items      int               `json:"items,omitempty"`
	Incomplete string            `json:"incomplete,omitempty"`
	Generation int64             `json:"generation,omitempty"`
	Findings   []finding.Finding `json:"findings,omitempty"`
	Error      string            `json:"error,omitempty"`
	Ms         float64           `json:"ms,omitempty"`
}

// CallInfo is the one record of a tool call's own fields, as the session
// file holds them: a call event carries it when the call starts
// ([PhaseStart]: who, the arguments, what the listing said) and when it ends
// ([PhaseDone]: everything but the arguments), a verdict event its ID, Tool
// and [PhaseVerdict]. The session's CallResult and the fold's Call embed
// it, so that a call has the same fields wherever it is read.
type CallInfo struct {
	ID    int64  `json:"id"`
	Tool  string `json:"tool"`
	State Phase  `json:"state"`
	// Args are the arguments sent (start event only).
	Args json.RawMessage `json:"args,omitempty"`
	// Listed says a walk had listed the tool; Generation is the generation
	// of the definition checked.
	Listed bool `json:"listed"`
	// Sent says tools/call went out; Forced that it did although a check
	// refused it.
	Sent       bool  `json:"sent"`
	Forced     bool  `json:"forced,omitempty"`
	Generation int64 `json:"generation,omitempty"`
	// Stale says a later listing changed the definition checked;
	// ListedDuring that a list request went out while the call was in
	// flight.
	Stale        bool `json:"stale,omitempty"`
	ListedDuring bool `json:"listedDuringCall,omitempty"`
	// ListChanged says the server sent notifications/tools/list_changed
	// after the listing the definition checked came from and before the
	// answer: the definition may be stale though no listing since said so.
	ListChanged bool `json:"listChanged,omitempty"`
	// RequestID is the JSON-RPC id of the tools/call request.
	RequestID string `json:"requestId,omitempty"`
	// Result is the raw result the server answered, RPCError its JSON-RPC
	// error; Err says why there is neither (timeout, cancel, connection).
	Result    json.RawMessage `json:"result,omitempty"`
	RPCError  json.RawMessage `json:"rpcError,omitempty"`
	Err       string          `json:"error,omitempty"`
	Cancelled bool            `json:"cancelled,omitempty"`
	// Ms is how long the call was out, in milliseconds.
	Ms float64 `json:"ms,omitempty"`
	// AsTask says the call was made as a task (tools/call with a task
	// parameter); TaskID is the task the server made for it and TaskStatus
	// its last status (see [TaskInfo] for the history).
	AsTask     bool       `json:"asTask,omitempty"`
	TaskID     string     `json:"taskId,omitempty"`
	TaskStatus TaskStatus `json:"taskStatus,omitempty"`
}

// RequestInfo describes a request other than a list or a tool call —
// resources/read, prompts/get, completion/complete, ping, logging/setLevel,
// resources/subscribe and resources/unsubscribe — when it starts
// ([PhaseStart]), gets a verdict ([PhaseVerdict], beside the event's
// Verdict) and ends ([PhaseDone]). In JSON:
//
//	{"id":3,"method":"resources/read","state":"done","about":"demo://readme",
//	 "params":{"uri":"demo://readme"},"sent":true,"requestId":"7",
//	 "result":{"contents":[…]},"ms":1.2}
//
// About is what the request is about (a uri, a prompt's name, a completion's
// reference, a level). Result is the raw answer as it came on the wire,
// RPCError the server's JSON-RPC error, Error why there is neither.
// Findings say what is worth knowing beyond the verdicts (see
// the session's RequestResult).
type RequestInfo struct {
	ID        int64             `json:"id"`
	Method    string            `json:"method"`
	State     Phase             `json:"state"`
	About     string            `json:"about,omitempty"`
	Params    json.RawMessage   `json:"params,omitempty"`
	Sent      bool              `json:"sent"`
	Forced    bool              `json:"forced,omitempty"`
	RequestID string            `json:"requestId,omitempty"`
	Result    json.RawMessage   `json:"result,omitempty"`
	RPCError  json.RawMessage   `json:"rpcError,omitempty"`
	Error     string            `json:"error,omitempty"`
	Cancelled bool              `json:"cancelled,omitempty"`
	Ms        float64           `json:"ms,omitempty"`
	Findings  []finding.Finding `json:"findings,omitempty"`
}

// ProgressInfo is one progress notification tied to a call.
type ProgressInfo struct {
	CallID   int64   `json:"call"`
	Progress float64 `json:"progress"`
	Total    float64 `json:"total,omitempty"`
	Message  string  `json:"message,omitempty"`
}

// RestartInfo is what a [KindRestart] event says of a restart. In JSON:
//
//	{"transport":"http","generation":4,"lostSession":"3f2a…"}
type RestartInfo struct {
	// Transport is the connection restarted: stdio (a new process), http
	// (a new HTTP session) or sse.
	Transport string `json:"transport"`
	// Generation is the list generation when the restart began: what was
	// listed up to it came from the old connection.
	Generation int64 `json:"generation"`
	// LostSession is the HTTP session the server had lost, when it had.
	LostSession string `json:"lostSession,omitempty"`
	// Closed is why the old connection had ended, when it had (the
	// server exited, a frame over the limit).
	Closed string `json:"closed,omitempty"`
}
