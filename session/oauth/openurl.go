package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"mcpwitness/sanitize"
)

// CheckOpenURL is the one policy for every URL mcpwitness hands to a
// browser (an OAuth authorization URL, a URL elicitation's URL): it
// returns raw parsed when it is an absolute https URL with a host, or an
// http URL on a loopback host (127.0.0.0/8, ::1, localhost) while the
// server itself is on loopback (targetLoopback). Anything else is refused
// with an error that says what and why: another scheme, userinfo, an
// empty host, control, invisible or whitespace characters, and text that
// starts with "-" (an opener would read it as an option).
func CheckOpenURL(raw string, targetLoopback bool) (*url.URL, error) {
	refuse := func(why string, args ...any) error {
		return fmt.Errorf("refusing to open %s: %s", quoteURL(raw), fmt.Sprintf(why, args...))
	}
	if raw == "" {
		return nil, errors.New("refusing to open an empty URL")
	}
	if strings.HasPrefix(raw, "-") {
		return nil, refuse("it starts with a dash (\"-\"), which a browser command reads as an option")
	}
	if why := badRune(raw); why != "" {
		return nil, refuse("it holds %s", why)
	}
	u, err := url.Parse(raw)
	if err != nil {
		return nil, refuse("it does not parse as a URL")
	}
	scheme, host := strings.ToLower(u.Scheme), u.Hostname()
	switch {
	case scheme == "":
		return nil, refuse("it is not an absolute URL (no scheme)")
	case scheme == "http" && !LoopbackHost(host):
		return nil, refuse("scheme \"http\" on host %q is not https (plain http is opened only on a loopback host)", sanitize.Line(host))
	case scheme == "http" && !targetLoopback:
		return nil, refuse("scheme \"http\" is not https (plain http on %s is opened only for a server on loopback)", sanitize.Line(host))
	case scheme != "https" && scheme != "http":
		return nil, refuse("scheme %q is not https", sanitize.Line(scheme))
	case u.Opaque != "":
		return nil, refuse("it has no \"//\" and host after %q", scheme+":")
	case u.User != nil:
		return nil, refuse("it carries a user name or password before host %q", sanitize.Line(host))
	case host == "":
		return nil, refuse("it names no host")
	}
	return u, nil
}

// badRune says which character of s no URL to open may hold: invalid
// UTF-8, a control or whitespace character, a format character (bidi
// controls, zero-width characters, tag characters), or "" if none.
func badRune(s string) string {
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(s[i:]); size <= 1 {
				return "invalid UTF-8"
			}
		case unicode.IsControl(r):
			return "a control character (" + sanitize.Line(string(r)) + ")"
		case unicode.IsSpace(r):
			return fmt.Sprintf("whitespace (U+%04X)", r)
		case unicode.Is(unicode.Cf, r), sanitize.Invisible(r), r >= 0xe0000 && r <= 0xe007f:
			return fmt.Sprintf("an invisible formatting character (U+%04X)", r)
		}
	}
	return ""
}

// quoteURL is raw quoted for an error: sanitised, and cut short.
func quoteURL(raw string) string {
	const most = 120
	s := sanitize.Line(raw)
	if utf8.RuneCountInString(s) > most {
		s = string([]rune(s)[:most]) + "…"
	}
	return `"` + s + `"`
}

// LoopbackHost reports whether host is localhost or a loopback address
// (127.0.0.0/8, ::1).
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	a, err := netip.ParseAddr(host)
	return err == nil && a.Unmap().IsLoopback()
}

// OpenURL opens raw in a browser if [CheckOpenURL] allows it (with
// targetLoopback, whether the server is on loopback), with $BROWSER if
// set, else the system opener. It returns the command used.
func OpenURL(ctx context.Context, raw string, targetLoopback bool) (string, error) {
	if _, err := CheckOpenURL(raw, targetLoopback); err != nil {
		return "", err
	}
	return openBrowser(ctx, raw)
}

// browserArgv is the command that opens u: $BROWSER if set (its first
// command, as other command line tools read it) with u last, else the
// system opener, with u after "--" where the opener takes it. u never
// starts with "-" ([CheckOpenURL]), so it is never read as an option.
func browserArgv(u string) ([]string, error) {
	if b := os.Getenv("BROWSER"); b != "" {
		first, _, _ := strings.Cut(b, ":")
		argv := strings.Fields(first)
		if len(argv) == 0 {
			return nil, errors.New("$BROWSER names no command")
		}
		return append(argv, u), nil
	}
	switch runtime.GOOS {
	case "darwin":
		return []string{"open", "--", u}, nil
	case "windows":
		return []string{"rundll32", "url.dll,FileProtocolHandler", u}, nil
	default:
		// xdg-open takes no "--".
		return []string{"xdg-open", u}, nil
	}
}

// openBrowser opens u, checked by [CheckOpenURL], with [browserArgv]. It
// returns the command used. A browser command that keeps running is left
// to run; one that fails at once is an error.
func openBrowser(ctx context.Context, u string) (string, error) {
	argv, err := browserArgv(u)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return argv[0], err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return argv[0], err
		}
	case <-time.After(2 * time.Second):
		// Still running (a browser in the foreground): leave it.
	case <-ctx.Done():
	}
	return argv[0], nil
}
