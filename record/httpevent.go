package record

// HTTPStep says what an [HTTPInfo] records.
type HTTPStep string

// The steps of HTTP events.
const (
	HTTPExchange HTTPStep = "exchange" // one request and the head of its response
	HTTPRetry    HTTPStep = "retry"    // a 429 answer is retried after a wait
	HTTPGiveUp   HTTPStep = "give-up"  // a 429 answer is not retried (attempts or budget spent)
	HTTPVended   HTTPStep = "vended"   // --header-cmd gave headers to a request (names only)
	HTTPLost     HTTPStep = "lost"     // a 404 to a request carrying an Mcp-Session-Id: the server lost that session
	// HTTPCrossOrigin: a redirect to another origin is followed without
	// the user's headers and credentials (their names in Dropped).
	HTTPCrossOrigin HTTPStep = "cross-origin"
)

// HTTPInfo is the evidence of one HTTP step, in the [KindHTTP] event. In
// JSON:
//
//	{"step":"exchange","method":"POST","url":"http://127.0.0.1:8080/mcp",
//	 "status":429,"ms":3.1,"contentType":"application/json","retryAfter":"2"}
//
// Header values that carry secrets never appear: WWWAuthenticate is the
// challenge (it holds no credential), Vended lists header names only.
type HTTPInfo struct {
	Step   HTTPStep `json:"step"`
	Method string   `json:"method,omitempty"`
	URL    string   `json:"url,omitempty"`
	Status int      `json:"status,omitempty"`
	// RequestID is the JSON-RPC id of the message a POST carried, so the
	// exchange stands beside its frame.
	RequestID string `json:"requestId,omitempty"`
	// Ms is the time from sending the request to the response's head.
	Ms              float64 `json:"ms,omitempty"`
	SessionID       string  `json:"sessionId,omitempty"`
	ContentType     string  `json:"contentType,omitempty"`
	RetryAfter      string  `json:"retryAfter,omitempty"`
	WWWAuthenticate string  `json:"wwwAuthenticate,omitempty"`
	// Attempt is the attempt just answered (1 for the first); WaitMs how
	// long mcpwitness waits before the next one.
	Attempt int     `json:"attempt,omitempty"`
	WaitMs  float64 `json:"waitMs,omitempty"`
	// Vended names the headers --header-cmd gave the request.
	Vended []string `json:"vended,omitempty"`
	// From is the URL a cross-origin redirect came from; Dropped names
	// the headers it left out.
	From    string   `json:"from,omitempty"`
	Dropped []string `json:"dropped,omitempty"`
	Error   string   `json:"error,omitempty"`
}

// AuthStep says which step of OAuth an [AuthInfo] records.
type AuthStep string

// The steps of OAuth.
const (
	AuthChallenge    AuthStep = "challenge"     // the server asked for authorization (401/403)
	AuthResourceMeta AuthStep = "resource-meta" // protected resource metadata fetched
	AuthServerMeta   AuthStep = "server-meta"   // authorization server metadata fetched
	AuthClient       AuthStep = "client"        // the client id in use and how it was obtained
	AuthOpen         AuthStep = "open"          // the authorization URL was shown and opened
	AuthRedirect     AuthStep = "redirect"      // the browser came back to the loopback listener
	AuthToken        AuthStep = "token"         // a token was obtained (never the token itself)
	AuthRefresh      AuthStep = "refresh"       // a token was refreshed
	AuthFailed       AuthStep = "failed"        // the flow failed; Error says why
)

// AuthInfo is one step of OAuth, in the [KindAuth] event. Tokens and
// client secrets are never in it.
type AuthInfo struct {
	Step AuthStep `json:"step"`
	// URL is the metadata document fetched, or the authorization URL.
	URL string `json:"url,omitempty"`
	// Issuer is the authorization server; ClientID the client in use and
	// Registration how it was obtained (metadata-url, pre-registered,
	// dynamic).
	Issuer       string `json:"issuer,omitempty"`
	ClientID     string `json:"clientId,omitempty"`
	Registration string `json:"registration,omitempty"`
	// TokenType, Scopes and Expires describe a token obtained.
	TokenType string   `json:"tokenType,omitempty"`
	Scopes    []string `json:"scopes,omitempty"`
	Expires   string   `json:"expires,omitempty"`
	Opened    string   `json:"opened,omitempty"`
	Error     string   `json:"error,omitempty"`
}
