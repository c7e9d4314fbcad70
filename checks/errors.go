package checks

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonschema"
	"mcpwitness/finding"
)

// The library's evaluation result is a tree. Each node's InstanceLocation is
// relative to its parent ("/price" under "/items/2"), and a node's errors mix
// leaf failures ("type", "minimum", "required") with applicator summaries
// ("properties", "items", "$ref") that only say a child failed. The walk below
// builds absolute JSON-pointer paths, follows only the children that caused a
// failure, and reports a summary only when no child explains it.

// schemaErrors flattens an invalid evaluation result into sorted errors with
// absolute instance paths. inst is the decoded instance the result is for.
func schemaErrors(res *jsonschema.EvaluationResult, inst any) []finding.SchemaError {
	var c collector
	c.walk(res, node{inst: inst})
	if len(c.errs) == 0 {
		// Nothing was explained by the walk; report what the root says rather
		// than nothing.
		for k, e := range res.Errors {
			c.errs = append(c.errs, finding.SchemaError{Keyword: k, Message: e.Error()})
		}
	}
	if len(c.errs) == 0 {
		c.errs = append(c.errs, finding.SchemaError{Keyword: "schema", Message: "Value does not match the schema"})
	}
	slices.SortFunc(c.errs, compareErrors)
	return slices.Compact(c.errs)
}

// node is where the walk stands: an instance location and how it got there.
type node struct {
	path  string // absolute JSON pointer of the instance, "" for the root
	inst  any    // the instance value at path
	via   string // the applicator keyword that led here, "" at the root
	token string // the instance token that keyword stepped over, if any
	name  string // inside propertyNames: the property name being checked
}

type collector struct {
	errs []finding.SchemaError
}

func (c *collector) walk(r *jsonschema.EvaluationResult, n node) {
	var explained []string
	for _, d := range r.Details {
		if d == nil || d.Valid {
			continue
		}
		kw := applicator(d.EvaluationPath)
		switch kw {
		case "if", "not":
			// A failing "if" only picks "else"; a failing "not" subschema is
			// what "not" wants. Neither is an error.
			continue
		case "anyOf":
			if r.Errors["anyOf"] == nil {
				continue // another branch matched
			}
		case "oneOf":
			if e := r.Errors["oneOf"]; e == nil || e.Code != "one_of_item_mismatch" {
				continue // one branch matched, or too many did: the rest are not the cause
			}
		}
		explained = append(explained, explains(kw)...)
		child, ok := n.child(kw, d.InstanceLocation)
		if !ok {
			continue
		}
		c.walk(d, child)
	}
	for k, e := range r.Errors {
		if summarizes(k) && slices.Contains(explained, k) {
			continue
		}
		c.add(n, k, e)
	}
}

// child returns the node a detail reached through keyword kw evaluates, and
// false for a required property that is absent: the library evaluates those
// against null, but "required" already reports them.
func (n node) child(kw, loc string) (node, bool) {
	next := node{path: n.path, inst: n.inst, via: kw, name: n.name}
	switch kw {
	case "dependentSchemas":
		// The library labels these with the trigger property, but the
		// subschema applies to the whole object.
		return next, true
	case "contentSchema":
		next.inst = nil // the decoded content, which we do not hold
		return next, true
	}
	if loc == "" {
		return next, true
	}
	token := strings.TrimPrefix(loc, "/")
	next.token = token
	next.path = n.path + "/" + escapeToken(token)
	next.inst = nil
	if kw == "propertyNames" {
		next.inst, next.name = token, token
		return next, true
	}
	switch v := n.inst.(type) {
	case map[string]any:
		m, ok := v[token]
		if !ok && kw == "properties" {
			return next, false
		}
		next.inst = m
	case []any:
		if i, err := strconv.Atoi(token); err == nil && i >= 0 && i < len(v) {
			next.inst = v[i]
		}
	}
	return next, true
}

// add records one error found at n.
func (c *collector) add(n node, keyword string, e *jsonschema.EvaluationError) {
	msg := e.Error()
	if keyword == "schema" && e.Code == "false_schema_mismatch" {
		// A false subschema: say what it forbids, in the words of the keyword
		// that holds it.
		switch n.via {
		case "additionalProperties":
			keyword, msg = n.via, fmt.Sprintf("Additional property '%s' is not allowed", n.token)
		case "unevaluatedProperties":
			keyword, msg = n.via, fmt.Sprintf("Unevaluated property '%s' is not allowed", n.token)
		case "properties", "patternProperties":
			keyword, msg = n.via, fmt.Sprintf("Property '%s' is not allowed", n.token)
		case "items", "prefixItems", "unevaluatedItems":
			keyword, msg = n.via, fmt.Sprintf("Item at index %s is not allowed", n.token)
		case "propertyNames":
			c.errs = append(c.errs, finding.SchemaError{InstancePath: n.path, Keyword: n.via,
				Message: fmt.Sprintf("Property name '%s' is not allowed", n.name)})
			return
		}
	}
	if n.name != "" {
		msg = fmt.Sprintf("Property name '%s': %s", n.name, msg)
	}
	c.errs = append(c.errs, finding.SchemaError{InstancePath: n.path, Keyword: keyword, Message: msg})
}

// applicator returns the keyword at the head of a detail's evaluation path:
// "properties" for "/properties/price". It is "" for $ref, $dynamicRef and
// else, which the library leaves unlabelled.
func applicator(evaluationPath string) string {
	kw, _, _ := strings.Cut(strings.TrimPrefix(evaluationPath, "/"), "/")
	return kw
}

// explains lists the summary error keywords a failing child reached through
// kw accounts for.
func explains(kw string) []string {
	switch kw {
	case "":
		return []string{"$ref", "$dynamicRef"}
	case "patternProperties", "unevaluatedProperties":
		// The library files these keywords' summaries under "properties".
		return []string{kw, "properties"}
	}
	return []string{kw}
}

// summarizes reports whether an error under keyword only says that children
// failed, so that the children's own errors replace it. anyOf, oneOf, then
// and else stay: they say how the children's errors combine.
func summarizes(keyword string) bool {
	switch keyword {
	case "properties", "patternProperties", "additionalProperties",
		"items", "prefixItems", "unevaluatedProperties", "unevaluatedItems",
		"allOf", "$ref", "$dynamicRef", "dependentSchemas", "propertyNames",
		"contentSchema":
		return true
	}
	return false
}

// escapeToken escapes one JSON-pointer reference token (RFC 6901).
func escapeToken(t string) string {
	if !strings.ContainsAny(t, "~/") {
		return t
	}
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// compareErrors orders errors by instance path (array indexes numerically),
// then keyword, then message.
func compareErrors(a, b finding.SchemaError) int {
	return cmp.Or(
		comparePointers(a.InstancePath, b.InstancePath),
		strings.Compare(a.Keyword, b.Keyword),
		strings.Compare(a.Message, b.Message),
	)
}

// comparePointers orders JSON pointers token by token, comparing tokens that
// are both array indexes by value, so "/items/2" sorts before "/items/10".
func comparePointers(a, b string) int {
	for a != "" && b != "" {
		var ta, tb string
		ta, a = nextToken(a)
		tb, b = nextToken(b)
		if c := compareTokens(ta, tb); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func nextToken(p string) (token, rest string) {
	p = strings.TrimPrefix(p, "/")
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return p[:i], p[i:]
	}
	return p, ""
}

func compareTokens(a, b string) int {
	if isIndex(a) && isIndex(b) {
		if c := cmp.Compare(len(a), len(b)); c != 0 {
			return c
		}
	}
	return strings.Compare(a, b)
}

func isIndex(t string) bool {
	if t == "" {
		return false
	}
	for i := 0; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return false
		}
	}
	return true
}
