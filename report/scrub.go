package report

import (
	"regexp"
	"strings"

	"mcpwitness/session"
)

// Credentials that may still stand in text written from a session file.
// The recorder redacts every secret it knows; these catch what it could not
// know, or a file written by something else.
var (
	// scheme://user:password@host
	userinfoRE = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.\-]*://)([^\s/@\[\]"'<>` + "`" + `]+)@`)
	// Authorization schemes followed by a credential with a digit in it.
	schemeRE = regexp.MustCompile(`\b(Bearer|Basic) ([A-Za-z0-9\-._~+/]*[0-9][A-Za-z0-9\-._~+/]*=*)`)
)

// Scrub returns s with credentials that are not yet redaction placeholders
// replaced by placeholders: URL userinfo, and Bearer and Basic credentials.
func Scrub(s string) string {
	s = userinfoRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := userinfoRE.FindStringSubmatch(m)
		return sub[1] + session.Placeholder("userinfo", sub[2]) + "@"
	})
	return schemeRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := schemeRE.FindStringSubmatch(m)
		if len(sub[2]) < 12 {
			return m
		}
		return sub[1] + " " + session.Placeholder("Authorization", sub[2])
	})
}

// guardURL replaces the query values of a URL that are not placeholders
// already; userinfo is left to [Scrub].
func guardURL(u string) string {
	base, query, ok := strings.Cut(u, "?")
	if !ok || !strings.Contains(base, "://") {
		return u
	}
	frag := ""
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query, frag = query[:i], query[i:]
	}
	parts := strings.Split(query, "&")
	for i, p := range parts {
		if name, value, ok := strings.Cut(p, "="); ok && value != "" {
			parts[i] = name + "=" + guard(name, value)
		}
	}
	return base + "?" + strings.Join(parts, "&") + frag
}
