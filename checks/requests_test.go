package checks

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestBeforePrompt(t *testing.T) {
	def := json.RawMessage(`{"name":"review","arguments":[{"name":"code","required":true},{"name":"language"}]}`)
	for _, tc := range []struct {
		name   string
		def    json.RawMessage
		args   map[string]string
		status Status
		says   string
	}{
		{"all given", def, map[string]string{"code": "x"}, Pass, "every required argument is given"},
		{"empty value counts as given", def, map[string]string{"code": ""}, Pass, "every required argument"},
		{"missing required", def, map[string]string{"language": "Go"}, Refused, `Prompt "review" requires 1 argument "code", which is missing`},
		{"unknown named", def, map[string]string{"code": "x", "tone": "kind"}, Pass, `"tone" is not declared`},
		{"not listed", nil, nil, Skipped, "was not listed"},
		{"arguments not an array", json.RawMessage(`{"arguments":{"code":1}}`), nil, Unchecked, "not an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := BeforePrompt("review", tc.def, tc.args)
			if v.Status != tc.status || !strings.Contains(v.Message, tc.says) {
				t.Errorf("got %s %q, want %s containing %q", v.Status, v.Message, tc.status, tc.says)
			}
			if Blocks([]Verdict{v}) != (tc.status == Refused) {
				t.Errorf("Blocks = %v for %s", !(tc.status == Refused), tc.status)
			}
		})
	}
}

func TestAfterPrompt(t *testing.T) {
	for _, tc := range []struct {
		name, result string
		status       Status
		path         string
	}{
		{"valid", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant","content":{"type":"resource_link","uri":"a://b","name":"b"}}]}`, Pass, ""},
		{"bad role", `{"messages":[{"role":"system","content":{"type":"text","text":"hi"}}]}`, Fail, "/messages/0/role"},
		{"unknown content type", `{"messages":[{"role":"user","content":{"type":"video"}}]}`, Fail, "/messages/0/content/type"},
		{"text without text", `{"messages":[{"role":"user","content":{"type":"text"}}]}`, Fail, "/messages/0/content/text"},
		{"image not base64", `{"messages":[{"role":"user","content":{"type":"image","data":"***","mimeType":"image/png"}}]}`, Fail, "/messages/0/content/data"},
		{"no messages", `{}`, Fail, "/messages"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := AfterPrompt(json.RawMessage(tc.result))
			if v.Status != tc.status {
				t.Fatalf("got %s %q, want %s", v.Status, v.Message, tc.status)
			}
			if tc.path != "" && (len(v.Errors) == 0 || v.Errors[0].InstancePath != tc.path) {
				t.Errorf("errors %+v, want the first at %s", v.Errors, tc.path)
			}
		})
	}
}

func TestAfterRead(t *testing.T) {
	for _, tc := range []struct {
		name, result string
		status       Status
		says         string
	}{
		{"text", `{"contents":[{"uri":"demo://a","text":"hi"}]}`, Pass, "1 item"},
		{"blob", `{"contents":[{"uri":"demo://a","blob":"aGk="}]}`, Pass, "1 item"},
		{"parts explained by the one asked", `{"contents":[{"uri":"demo://a","text":""},{"uri":"demo://a/1","text":"x"}]}`, Pass, "2 items"},
		{"no uri", `{"contents":[{"text":"hi"}]}`, Fail, "every item must have a uri"},
		{"both", `{"contents":[{"uri":"demo://a","text":"hi","blob":"aGk="}]}`, Fail, "has both"},
		{"neither", `{"contents":[{"uri":"demo://a"}]}`, Fail, "has neither"},
		{"bad base64", `{"contents":[{"uri":"demo://a","blob":"not base64!"}]}`, Fail, "not valid base64"},
		{"other uri", `{"contents":[{"uri":"demo://b","text":"hi"}]}`, Fail, `no item has the uri asked for ("demo://a")`},
		{"no contents", `{}`, Fail, "must have contents"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := AfterRead("demo://a", json.RawMessage(tc.result))
			if v.Status != tc.status || !strings.Contains(v.Message, tc.says) {
				t.Errorf("got %s %q, want %s containing %q", v.Status, v.Message, tc.status, tc.says)
			}
		})
	}
}

func TestAfterComplete(t *testing.T) {
	many := make([]string, 101)
	for i := range many {
		many[i] = fmt.Sprintf("%q", fmt.Sprint(i))
	}
	for _, tc := range []struct {
		name, result string
		status       Status
		says         string
	}{
		{"valid", `{"completion":{"values":["a","b"],"total":5,"hasMore":true}}`, Pass, "2 values"},
		{"no total", `{"completion":{"values":[]}}`, Pass, "0 values"},
		{"over 100", `{"completion":{"values":[` + strings.Join(many, ",") + `]}}`, Fail, "must not exceed 100 items; the server sent 101"},
		{"total below count", `{"completion":{"values":["a","b"],"total":1}}`, Fail, "total is 1 but 2 values were sent"},
		{"more without hasMore", `{"completion":{"values":["a"],"total":3}}`, Fail, "hasMore is not true"},
		{"values not strings", `{"completion":{"values":[1]}}`, Fail, "array of strings"},
		{"no completion", `{}`, Fail, "completion is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := AfterComplete(json.RawMessage(tc.result))
			if v.Status != tc.status || !strings.Contains(v.Message, tc.says) {
				t.Errorf("got %s %q, want %s containing %q", v.Status, v.Message, tc.status, tc.says)
			}
		})
	}
}
