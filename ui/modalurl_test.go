package ui

import (
	"mcpwitness/internal/oauthtest"
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

func TestModalElicitationURLRefusesUnsafeURLs(t *testing.T) {
	argv := oauthtest.RecordingBrowser(t)
	h, srv := askHarness(t)
	for _, tt := range []struct{ url, why string }{
		{"--gpu-launcher=touch /tmp/pwned", "starts with a dash"},
		{"javascript:alert(document.cookie)", `scheme "javascript" is not https`},
		{"file:///etc/passwd", `scheme "file" is not https`},
		{"http://127.0.0.1:6277/sse?command=touch", `scheme "http" is not https`},
	} {
		srv.url.Store(&tt.url)
		h.startCall("ask_url")
		screen := strings.Join(strings.Fields(strings.ReplaceAll(ansi.Strip(h.m.askView()), "│", " ")), " ")
		if !strings.Contains(screen, "o will not open it") || !strings.Contains(screen, tt.why) {
			t.Errorf("%s: the modal does not say why it will not open it:\n%s", tt.url, h.m.askView())
		}
		_, cmd := h.m.Update(keyMsg("o"))
		if cmd != nil {
			t.Errorf("%s: o made a command", tt.url)
		}
		if !strings.Contains(h.m.ask.note, "not opened") || !strings.Contains(h.m.ask.note, tt.why) {
			t.Errorf("%s: the note %q does not say why it was not opened", tt.url, h.m.ask.note)
		}
		h.key("ctrl+x")
		if got := h.callAnswer("ask_url"); got != `{"action":"decline"}` {
			t.Errorf("%s: declined, the server got %s", tt.url, got)
		}
	}
	if b, err := os.ReadFile(argv); err == nil {
		t.Errorf("the browser was run with %q", b)
	}

	good := "https://login.example.com/authorize?state=1"
	srv.url.Store(&good)
	h.startCall("ask_url")
	if s := ansi.Strip(h.m.askView()); !strings.Contains(s, "host: login.example.com") {
		t.Errorf("the modal does not set the host apart:\n%s", s)
	}
	h.key("o")
	h.until("the URL opened", func() bool { return strings.HasPrefix(h.m.ask.note, "opened with") })
	if b, err := os.ReadFile(argv); err != nil || string(b) != good+"\n" {
		t.Errorf("the browser got %q (%v), want the URL alone", b, err)
	}
	h.key("esc")
	h.callAnswer("ask_url")
}

var _ tea.Msg = urlOpenedMsg{}
