package report

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"

	"mcpwitness/record"
)

// Credentials that may still stand in text written from a session file.
// The recorder redacts every secret it knows; these catch what it could not
// know, or a file written by something else.
//
// They are compiled on first use: a process that never scrubs (every
// command but report and diff) does not pay for them at start.
var (
	// scheme://user:password@host
	userinfoRE = lazyRegexp(`([A-Za-z][A-Za-z0-9+.\-]*://)([^\s/@\[\]"'<>` + "`" + `]+)@`)
	// Authorization schemes followed by a credential with a digit in it.
	schemeRE = lazyRegexp(`\b(Bearer|Basic) ([A-Za-z0-9\-._~+/]*[0-9][A-Za-z0-9\-._~+/]*=*)`)
)

// lazyRegexp is a regexp compiled the first time it is asked for.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// A Scrubber is the last check for secrets of what report writes: the
// recorder redacts every secret it knows, but a file written by something
// else, or one older than a redaction, may still hold a credential in its
// text. Each one found is replaced by the placeholder the record would
// write, its digest keyed with the same per-user key (see
// [record.KeyedPlaceholder]), so the same secret reads the same in the
// record and the report and neither lets anyone test guesses of it.
//
// The key is asked for only when there is a credential to replace: a
// report with none never reads or makes a key. A nil *Scrubber uses the
// user's key ([record.LoadDigestKey] of "").
type Scrubber struct {
	key   func() (*record.DigestKey, error)
	k     *record.DigestKey
	err   error
	asked bool
}

// NewScrubber returns a scrubber whose digests are keyed with the key
// that load returns, asked for once, when first needed.
func NewScrubber(load func() (*record.DigestKey, error)) *Scrubber {
	return &Scrubber{key: load}
}

// ScrubberAt returns a scrubber keyed with the digest key kept at path ("" for
// the user's), as --digest-key FILE names it.
func ScrubberAt(path string) *Scrubber {
	return NewScrubber(func() (*record.DigestKey, error) { return record.LoadDigestKey(path) })
}

// KeyedScrubber returns a scrubber keyed with k.
func KeyedScrubber(k *record.DigestKey) *Scrubber {
	return NewScrubber(func() (*record.DigestKey, error) { return k, nil })
}

// or is sc, or the user's scrubber when sc is nil.
func (sc *Scrubber) or() *Scrubber {
	if sc == nil {
		return ScrubberAt("")
	}
	return sc
}

// placeholder is the placeholder of value named name, keyed; "" when the
// key could not be had (see [Scrubber.Err]).
func (sc *Scrubber) placeholder(name, value string) string {
	if !sc.asked {
		sc.asked = true
		if sc.k, sc.err = sc.key(); sc.err == nil && sc.k == nil {
			sc.err = errors.New("no digest key")
		}
	}
	if sc.err != nil {
		return "[REDACTED:" + name + "]"
	}
	return record.KeyedPlaceholder(sc.k, name, value)
}

// Err says why a credential could not be replaced by a keyed placeholder;
// nil when none was found or the key was had.
func (sc *Scrubber) Err() error {
	if sc.err == nil {
		return nil
	}
	return fmt.Errorf("a credential in the text is to be redacted with a keyed digest: %w", sc.err)
}

// Scrub returns s with credentials that are not yet redaction placeholders
// replaced by keyed placeholders: URL userinfo, and Bearer and Basic
// credentials. When the key cannot be had it says so (an error naming the
// cause) and writes nothing of the credential.
func (sc *Scrubber) Scrub(s string) (string, error) {
	s = userinfoRE().ReplaceAllStringFunc(s, func(m string) string {
		sub := userinfoRE().FindStringSubmatch(m)
		return sub[1] + sc.placeholder("userinfo", sub[2]) + "@"
	})
	s = schemeRE().ReplaceAllStringFunc(s, func(m string) string {
		sub := schemeRE().FindStringSubmatch(m)
		if len(sub[2]) < 12 {
			return m
		}
		return sub[1] + " " + sc.placeholder("Authorization", sub[2])
	})
	return s, sc.Err()
}

// write writes s to w, scrubbed.
func (sc *Scrubber) write(w io.Writer, s string) error {
	s, err := sc.Scrub(s)
	if err != nil {
		return err
	}
	_, err = io.WriteString(w, s)
	return err
}

// guardURL replaces the query values of a URL that are not placeholders
// already; userinfo is left to [Scrubber.Scrub].
func (sc *Scrubber) guardURL(u string) string {
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
			parts[i] = name + "=" + sc.guard(name, value)
		}
	}
	return base + "?" + strings.Join(parts, "&") + frag
}
