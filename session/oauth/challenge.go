package oauth

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// ChallengeError is an HTTP 401 or 403 answered without OAuth: what the
// server's WWW-Authenticate challenge asked for, cause first.
type ChallengeError struct {
	Status      string // "401 Unauthorized"
	Method, URL string
	// Challenges are the server's, parsed (scheme and parameters in lower
	// case); Raw is the header as sent when it could not be parsed.
	Challenges []oauthex.Challenge
	Raw        string
	// Why says why OAuth did not run ("" when it is off).
	Why string
}

// challengeParams are the parameters a challenge error names, in order.
var challengeParams = []string{"realm", "resource_metadata", "scope", "error", "error_description"}

func (e *ChallengeError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %s for %s %s: ", e.Status, e.Method, e.URL)
	switch {
	case len(e.Challenges) > 0:
		for i, c := range e.Challenges {
			if i > 0 {
				b.WriteString("; or ")
			}
			scheme := c.Scheme
			if scheme == "bearer" {
				scheme = "Bearer"
			}
			fmt.Fprintf(&b, "the server asks for %s authorization", scheme)
			var params []string
			for _, k := range challengeParams {
				if v, ok := c.Params[k]; ok {
					params = append(params, fmt.Sprintf("%s=%q", k, v))
				}
			}
			if len(params) > 0 {
				b.WriteString(" (" + strings.Join(params, ", ") + ")")
			}
		}
	case e.Raw != "":
		fmt.Fprintf(&b, "the server's WWW-Authenticate challenge is %q", e.Raw)
	default:
		b.WriteString("the server sent no WWW-Authenticate challenge")
	}
	if e.Why != "" {
		b.WriteString("; " + e.Why)
	} else {
		b.WriteString("; pass credentials with -H 'Authorization: …' or --header-cmd, or let mcpwitness run OAuth (leave out --oauth off)")
	}
	return b.String()
}

// NewChallengeError reads the challenge of resp, the answer to req.
func NewChallengeError(req *http.Request, resp *http.Response, url string) *ChallengeError {
	e := &ChallengeError{Status: resp.Status, Method: req.Method, URL: url}
	if hs := resp.Header.Values("WWW-Authenticate"); len(hs) > 0 {
		cs, err := oauthex.ParseWWWAuthenticate(hs)
		if err != nil || len(cs) == 0 {
			e.Raw = strings.Join(hs, ", ")
		}
		e.Challenges = cs
	}
	return e
}
