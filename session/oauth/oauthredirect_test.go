package oauth

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"mcpwitness/record"
)

// noticed is a Notice that says when something was written to it.
type noticed chan string

func (n noticed) Write(p []byte) (int, error) { n <- string(p); return len(p), nil }

// flowUnderTest is an authorization code flow's fetch, waiting on its
// own loopback listener, with no browser: get plays the browser.
type flowUnderTest struct {
	t      *testing.T
	o      *Handler
	notice noticed
}

func newFlowUnderTest(t *testing.T) *flowUnderTest {
	t.Helper()
	l, err := listenRedirect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.close)
	n := make(noticed, 1)
	o := &Handler{log: record.NewLog(nil), redirects: l,
		config: Config{URL: "http://127.0.0.1:9/mcp", Loopback: true, NoBrowser: true, Notice: n}}
	return &flowUnderTest{t: t, o: o, notice: n}
}

type fetched struct {
	res *auth.AuthorizationResult
	err error
}

// start runs a flow with state in the background, once its listener
// takes requests.
func (f *flowUnderTest) start(state string) <-chan fetched {
	done := make(chan fetched, 1)
	go func() {
		res, err := f.o.fetch(f.t.Context(), &auth.AuthorizationArgs{URL: "http://127.0.0.1:9/authorize?client_id=c&state=" + state})
		done <- fetched{res, err}
	}()
	select {
	case <-f.notice:
	case r := <-done:
		f.t.Fatalf("the flow ended before showing its URL: %v", r.err)
	}
	return done
}

// get requests the redirect URL with query, and returns the status, or
// 0 when nothing listens.
func (f *flowUnderTest) get(query string) int {
	resp, err := http.Get(f.o.redirects.URL() + "?" + query)
	if err != nil {
		return 0
	}
	resp.Body.Close()
	return resp.StatusCode
}

func TestOAuthRedirectListenerTakesOnlyItsFlowsRedirect(t *testing.T) {
	f := newFlowUnderTest(t)
	for i, state := range []string{"first-state", "step-up-state"} {
		done := f.start(state)
		for _, stray := range []string{"state=wrong&code=evil", "code=evil", "error=access_denied", "state=first-state&code=old"} {
			if i == 0 && strings.Contains(stray, "first-state") {
				continue
			}
			if got := f.get(stray); got != http.StatusBadRequest {
				t.Errorf("flow %d: a stray %q got %d, want 400", i, stray, got)
			}
		}
		if got := f.get("state=" + state + "&code=code" + state); got != http.StatusOK {
			t.Fatalf("flow %d: the real redirect got %d", i, got)
		}
		r := <-done
		if r.err != nil || r.res.Code != "code"+state || r.res.State != state {
			t.Fatalf("flow %d: fetch = %+v, %v; want the real redirect's code", i, r.res, r.err)
		}
		if got := f.get("state=" + state + "&code=again"); got == http.StatusOK {
			t.Errorf("flow %d: a second redirect after the flow got 200", i)
		}
		if c, err := net.Dial("tcp", f.o.redirects.addr); err == nil {
			c.Close()
			t.Errorf("flow %d: the redirect listener still listens after the flow", i)
		}
	}
}

func TestOAuthRedirectListenerClosesOnFailure(t *testing.T) {
	f := newFlowUnderTest(t)
	done := f.start("s1")
	if got := f.get("state=s1&error=access_denied&error_description=no"); got != http.StatusBadRequest {
		t.Errorf("the refusal got %d, want 400 (it is still the flow's answer)", got)
	}
	if r := <-done; r.err == nil || !strings.Contains(r.err.Error(), "access_denied") {
		t.Fatalf("fetch = %v, want the authorization server's refusal", r.err)
	}
	if c, err := net.Dial("tcp", f.o.redirects.addr); err == nil {
		c.Close()
		t.Error("the redirect listener still listens after a failed flow")
	}
	// A timed-out flow closes it too, and the next flow still works.
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-f.notice; cancel() }()
	if _, err := f.o.fetch(ctx, &auth.AuthorizationArgs{URL: "http://127.0.0.1:9/authorize?state=s2"}); err == nil || !strings.Contains(err.Error(), "no redirect came back") {
		t.Fatalf("a cancelled flow: %v", err)
	}
	done = f.start("s3")
	if got := f.get("state=s3&code=c3"); got != http.StatusOK {
		t.Fatalf("the flow after a timeout: the redirect got %d", got)
	}
	if r := <-done; r.err != nil || r.res.Code != "c3" {
		t.Fatalf("the flow after a timeout: %+v, %v", r.res, r.err)
	}
}

func TestOAuthRedirectListenerTakesOneRedirectPerFlow(t *testing.T) {
	t.Parallel()
	l, err := listenRedirect()
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	f, err := l.begin(t.Context(), "s")
	if err != nil {
		t.Fatal(err)
	}
	defer l.end()
	var codes []int
	for _, q := range []string{"state=s&code=one", "state=s&code=two"} {
		rec := httptest.NewRecorder()
		l.ServeHTTP(rec, httptest.NewRequest("GET", "/callback?"+q, nil))
		codes = append(codes, rec.Code)
	}
	if codes[0] != http.StatusOK || codes[1] != http.StatusBadRequest {
		t.Errorf("two redirects of one flow got %v, want [200 400]", codes)
	}
	if r, err := l.wait(t.Context(), f); err != nil || r.res == nil || r.res.Code != "one" {
		t.Errorf("the flow got %+v, %v; want the first redirect", r, err)
	}
}
