package checks

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"mcpwitness/finding"
	"mcpwitness/tooldef"
)

// ResourceContents checks a ReadResourceResult: each item of contents has
// a uri and exactly one of text or blob, a blob is valid base64, and the
// uri asked for is among the items.
const ResourceContents = "resource-contents"

// AfterRead judges a ReadResourceResult (the raw JSON-RPC result) for a
// resources/read of uri. Every problem is one error with its instance
// path; the message names the first.
//
// An item whose uri differs from the one asked for is explained when
// another item has the uri asked for (a resource answering with its
// parts); when no item has it, the answer is for something else.
func AfterRead(uri string, result json.RawMessage) finding.Verdict {
	var res struct {
		Contents json.RawMessage `json:"contents"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return finding.Verdict{Check: ResourceContents, Status: finding.Fail, Message: "the result is not a JSON object"}
	}
	var items []json.RawMessage
	if tooldef.Absent(res.Contents) || json.Unmarshal(res.Contents, &items) != nil {
		return finding.Verdict{Check: ResourceContents, Status: finding.Fail, Message: "ReadResourceResult must have contents, an array",
			Errors: []finding.SchemaError{{InstancePath: "/contents", Keyword: "required", Message: "contents is missing or not an array"}}}
	}
	var errs []finding.SchemaError
	var uris []string
	asked := false
	for i, raw := range items {
		u, e := itemErrors(fmt.Sprintf("/contents/%d", i), raw)
		errs = append(errs, e...)
		if u != "" {
			uris = append(uris, u)
			asked = asked || u == uri
		}
	}
	if !asked && len(uris) > 0 {
		errs = append(errs, finding.SchemaError{InstancePath: "/contents/0/uri", Keyword: "const",
			Message: fmt.Sprintf("no item has the uri asked for (%q); the first is %q", uri, uris[0])})
	}
	if len(errs) > 0 {
		return finding.Verdict{Check: ResourceContents, Status: finding.Fail, Errors: errs,
			Message: "Resource contents do not follow the specification: " + summary(errs)}
	}
	if len(items) == 0 {
		return finding.Verdict{Check: ResourceContents, Status: finding.Pass, Message: "no contents (an empty resource)"}
	}
	return finding.Verdict{Check: ResourceContents, Status: finding.Pass,
		Message: fmt.Sprintf("%s, each with a uri and exactly one of text or blob", plural(len(items), "item"))}
}

// itemErrors checks one item of contents at path and returns its uri.
func itemErrors(path string, raw json.RawMessage) (string, []finding.SchemaError) {
	var c map[string]json.RawMessage
	if json.Unmarshal(raw, &c) != nil || c == nil {
		return "", []finding.SchemaError{{InstancePath: path, Keyword: "type", Message: "an item of contents must be an object"}}
	}
	var errs []finding.SchemaError
	var uri string
	if json.Unmarshal(c["uri"], &uri) != nil || uri == "" {
		errs = append(errs, finding.SchemaError{InstancePath: path + "/uri", Keyword: "required",
			Message: fmt.Sprintf("every item must have a uri; this one has %s", shown(c["uri"]))})
	}
	text, blob := !tooldef.Absent(c["text"]), !tooldef.Absent(c["blob"])
	switch {
	case text && blob:
		errs = append(errs, finding.SchemaError{InstancePath: path, Keyword: "oneOf",
			Message: "an item must have exactly one of text or blob; this one has both"})
	case !text && !blob:
		errs = append(errs, finding.SchemaError{InstancePath: path, Keyword: "oneOf",
			Message: "an item must have exactly one of text or blob; this one has neither"})
	case text:
		var s string
		if json.Unmarshal(c["text"], &s) != nil {
			errs = append(errs, finding.SchemaError{InstancePath: path + "/text", Keyword: "type", Message: "text must be a string"})
		}
	case blob:
		if msg := base64Problem(c["blob"]); msg != "" {
			errs = append(errs, finding.SchemaError{InstancePath: path + "/blob", Keyword: "contentEncoding", Message: msg})
		}
	}
	return uri, errs
}

// base64Problem says what is wrong with raw as a base64 string, or "".
func base64Problem(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "must be a base64 string, not " + compact(raw)
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		return "is not valid base64: " + err.Error()
	}
	return ""
}
