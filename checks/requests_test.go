package checks

import (
	"encoding/json"
	"fmt"
	"mcpwitness/finding"
	"strings"
	"testing"
)

func TestBeforePrompt(t *testing.T) {
	def := json.RawMessage(`{"name":"review","arguments":[{"name":"code","required":true},{"name":"language"}]}`)
	for _, tc := range []struct {
		name   string
		def    json.RawMessage
		args   map[string]string
		status finding.Status
		says   string
	}{
		{"all given", def, map[string]string{"code": "x"}, finding.Pass, "every required argument is given"},
		{"empty value counts as given", def, map[string]string{"code": ""}, finding.Pass, "every required argument"},
		{"missing required", def, map[string]string{"language": "Go"}, finding.Refused, `Prompt "review" requires 1 argument "code", which is missing`},
		{"unknown named", def, map[string]string{"code": "x", "tone": "kind"}, finding.Pass, `"tone" is not declared`},
		{"not listed", nil, nil, finding.Skipped, "was not listed"},
		{"arguments not an array", json.RawMessage(`{"arguments":{"code":1}}`), nil, finding.Unchecked, "not an array"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := BeforePrompt("review", tc.def, tc.args)
			if v.Status != tc.status || !strings.Contains(v.Message, tc.says) {
				t.Errorf("got %s %q, want %s containing %q", v.Status, v.Message, tc.status, tc.says)
			}
			if Blocks([]finding.Verdict{v}) != (tc.status == finding.Refused) {
				t.Errorf("Blocks = %v for %s", !(tc.status == finding.Refused), tc.status)
			}
		})
	}
}

func TestAfterPrompt(t *testing.T) {
	for _, tc := range []struct {
		name, result string
		status       finding.Status
		path         string
	}{
		{"valid", `{"messages":[{"role":"user","content":{"type":"text","text":"hi"}},{"role":"assistant","content":{"type":"resource_link","uri":"a://b","name":"b"}}]}`, finding.Pass, ""},
		{"bad role", `{"messages":[{"role":"system","content":{"type":"text","text":"hi"}}]}`, finding.Fail, "/messages/0/role"},
		{"unknown content type", `{"messages":[{"role":"user","content":{"type":"video"}}]}`, finding.Fail, "/messages/0/content/type"},
		{"text without text", `{"messages":[{"role":"user","content":{"type":"text"}}]}`, finding.Fail, "/messages/0/content/text"},
		{"image not base64", `{"messages":[{"role":"user","content":{"type":"image","data":"***","mimeType":"image/png"}}]}`, finding.Fail, "/messages/0/content/data"},
		{"no messages", `{}`, finding.Fail, "/messages"},
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
		status       finding.Status
		says         string
	}{
		{"text", `{"contents":[{"uri":"demo://a","text":"hi"}]}`, finding.Pass, "1 item"},
		{"blob", `{"contents":[{"uri":"demo://a","blob":"aGk="}]}`, finding.Pass, "1 item"},
		{"parts explained by the one asked", `{"contents":[{"uri":"demo://a","text":""},{"uri":"demo://a/1","text":"x"}]}`, finding.Pass, "2 items"},
		{"no uri", `{"contents":[{"text":"hi"}]}`, finding.Fail, "every item must have a uri"},
		{"both", `{"contents":[{"uri":"demo://a","text":"hi","blob":"aGk="}]}`, finding.Fail, "has both"},
		{"neither", `{"contents":[{"uri":"demo://a"}]}`, finding.Fail, "has neither"},
		{"bad base64", `{"contents":[{"uri":"demo://a","blob":"not base64!"}]}`, finding.Fail, "not valid base64"},
		{"other uri", `{"contents":[{"uri":"demo://b","text":"hi"}]}`, finding.Fail, `no item has the uri asked for ("demo://a")`},
		{"no contents", `{}`, finding.Fail, "must have contents"},
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
		status       finding.Status
		says         string
	}{
		{"valid", `{"completion":{"values":["a","b"],"total":5,"hasMore":true}}`, finding.Pass, "2 values"},
		{"no total", `{"completion":{"values":[]}}`, finding.Pass, "0 values"},
		{"over 100", `{"completion":{"values":[` + strings.Join(many, ",") + `]}}`, finding.Fail, "must not exceed 100 items; the server sent 101"},
		{"total below count", `{"completion":{"values":["a","b"],"total":1}}`, finding.Fail, "total is 1 but 2 values were sent"},
		{"more without hasMore", `{"completion":{"values":["a"],"total":3}}`, finding.Fail, "hasMore is not true"},
		{"values not strings", `{"completion":{"values":[1]}}`, finding.Fail, "array of strings"},
		{"no completion", `{}`, finding.Fail, "completion is missing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := AfterComplete(json.RawMessage(tc.result))
			if v.Status != tc.status || !strings.Contains(v.Message, tc.says) {
				t.Errorf("got %s %q, want %s containing %q", v.Status, v.Message, tc.status, tc.says)
			}
		})
	}
}
