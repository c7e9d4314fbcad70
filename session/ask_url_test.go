package session

import (
	"encoding/json"
	"mcpwitness/record"
	"strings"
	"testing"
)

// --elicit answers URL elicitation too, and declares it: decline and
// cancel as they say, the accepting ones by accepting (server-everything
// registers trigger-url-elicitation only for a client declaring URL mode).
func TestElicitAnswersURLRequests(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		flag, want, event string
	}{
		{"decline", `{"action":"decline"}`, "decline (URL mode)"},
		{"cancel", `{"action":"cancel"}`, "cancel (URL mode)"},
		{"accept-defaults", `{"action":"accept"}`, "accept (URL mode): the URL is yours to open"},
	} {
		t.Run(tc.flag, func(t *testing.T) {
			a, err := ParseElicit(tc.flag)
			if err != nil {
				t.Fatal(err)
			}
			s := askingSession(t, &Options{Elicit: a})
			frames := wireFrames(s.Log(), record.Send, "initialize")
			var f struct {
				Params struct {
					Capabilities struct {
						Elicitation map[string]json.RawMessage `json:"elicitation"`
					} `json:"capabilities"`
				} `json:"params"`
			}
			if len(frames) != 1 || json.Unmarshal(frames[0].Frame, &f) != nil || f.Params.Capabilities.Elicitation["url"] == nil {
				t.Fatalf("URL elicitation not declared: %d initialize frames, %+v", len(frames), f)
			}
			got, isErr := callText(t, s, "ask_url")
			if isErr || got != tc.want {
				t.Errorf("the server got %s (error %v), want %s", got, isErr, tc.want)
			}
			texts := serverCalls(s.Log(), "elicitation/create")
			if len(texts) != 2 || texts[0] != "asked" || !strings.HasPrefix(texts[1], tc.event) {
				t.Errorf("events %q, want asked then %q…", texts, tc.event)
			}
		})
	}
}
