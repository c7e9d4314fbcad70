package session

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// origin is a URL's scheme, host and port (RFC 6454), the port made
// explicit, lower case: two URLs share an origin when their origins are
// equal.
func origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "https", "wss":
			port = "443"
		default:
			port = "80"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// sameOrigin reports whether a and b share an origin.
func sameOrigin(a, b *url.URL) bool { return origin(a) == origin(b) }

// credentialHeaders are the headers that carry credentials of their own,
// besides the user's -H and --header-cmd ones: a request to another
// origin never carries them.
var credentialHeaders = []string{"Authorization", "Cookie", "Proxy-Authorization"}

// OriginError is a legacy SSE server whose endpoint event names a URL of
// another origin than the stream's: mcpwitness posts only to the server's
// own origin.
type OriginError struct {
	Stream, Endpoint string
}

func (e *OriginError) Error() string {
	return fmt.Sprintf("the SSE server at %s names %s, another origin, as the endpoint to post to; mcpwitness posts only to the server's own origin (scheme, host and port): connect to that server's URL directly if you trust it",
		e.Stream, e.Endpoint)
}

// stripCredentials removes from h the user's headers (names) and the
// credential headers, and returns the names of those it held.
func stripCredentials(h http.Header, names []string) []string {
	var gone []string
	for _, name := range append(append([]string(nil), names...), credentialHeaders...) {
		if _, ok := h[http.CanonicalHeaderKey(name)]; ok {
			h.Del(name)
			gone = append(gone, http.CanonicalHeaderKey(name))
		}
	}
	return gone
}
