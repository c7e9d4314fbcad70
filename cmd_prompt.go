package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/render"
	"mcpwitness/session"
)

// promptDoc is the --json document of `prompt`.
type promptDoc struct {
	docHead
	Server     serverDoc         `json:"server"`
	Prompt     string            `json:"prompt"`
	Messages   []json.RawMessage `json:"messages"`
	Verdicts   []finding.Verdict `json:"verdicts"`
	DurationMs float64           `json:"durationMs"`
	Sent       bool              `json:"sent"`
	Forced     bool              `json:"forced,omitempty"`
	Error      *errorObj         `json:"error"`
	// Findings say what is worth knowing beyond the verdicts: the prompt
	// list changed before the answer, the SDK could not take it.
	Findings []finding.Finding `json:"findings,omitempty"`
}

// runPrompt gets one prompt with its verdicts: mcpwitness prompt NAME
// [k=v ...|--args JSON]. The prompts walk before it gives the definition
// the arguments are checked against; a missing required argument refuses
// the request unless --force. Exit codes as call.
func runPrompt(ctx context.Context, a *app) error {
	// The arguments need no definition (they are strings): a mistake in
	// them is said before connecting.
	args, err := promptArgs(a.cfg.args[1:], a.cfg.argsJSON, a.cfg.argsSet)
	if err != nil {
		return err
	}
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	name := a.cfg.args[0]
	folded := foldLog(a.log)
	var walk *paging.Result
	if !fold.ReadCaps(sess.Info().Capabilities).Prompts {
		// No prompts/list to ask (a client would not): the get goes
		// out as a probe, its arguments unchecked.
		a.warn(fmt.Errorf("the server does not declare prompts; getting %q all the same", name))
	} else if _, walk = sess.Walk(ctx, paging.Prompts()); walk.Incomplete == paging.Failed {
		a.warn(fmt.Errorf("listing prompts before getting one: %w", walk.Err))
	}
	var def json.RawMessage
	folded.read(func(st *fold.State) {
		for _, it := range st.Items(st.Latest(paging.Prompts().Name)) {
			if it.Key == name {
				def = it.Raw
			}
		}
	})
	if def == nil && walk != nil && walk.Incomplete == paging.Complete && !a.cfg.force {
		return notFound(fmt.Errorf("prompt %q is not listed by the server (%s in %s read whole); mcpwitness prompts lists them, --force sends the request anyway",
			name, nouns(walk.Count(), "prompt"), nouns(len(walk.Pages), "page")))
	}
	r := sess.GetPrompt(ctx, name, args, &session.PromptOptions{Definition: def, Force: a.cfg.force})
	doc := promptDocument(serverDocument(sess.Info()), name, r)
	a.show(doc, func() { a.pr.prompt(doc, r) })
	return requestExit(r)
}

// promptArgs makes a prompt's arguments from k=v pairs, or from --args, a
// JSON object whose values are all strings (prompt arguments are strings).
func promptArgs(pairs []string, raw string, rawSet bool) (map[string]string, error) {
	args := map[string]string{}
	if rawSet {
		var obj map[string]json.RawMessage
		if err := json.Unmarshal([]byte(raw), &obj); err != nil || obj == nil {
			return nil, usagef("--args must be a JSON object of strings such as '{\"code\":\"x := 1\"}': %v", jsonErr(err))
		}
		for k, v := range obj {
			var s string
			if json.Unmarshal(v, &s) != nil {
				return nil, usagef("--args %q is %s: prompt arguments are strings", k, v)
			}
			args[k] = s
		}
		return args, nil
	}
	for _, kv := range pairs {
		k, v, _ := strings.Cut(kv, "=")
		args[k] = v
	}
	return args, nil
}

// promptDocument is the document of the prompts/get r of name, made on
// server.
func promptDocument(server serverDoc, name string, r *session.RequestResult) promptDoc {
	doc := promptDoc{docHead: headOf("prompt"), Server: server, Prompt: name, Messages: []json.RawMessage{},
		Verdicts: append([]finding.Verdict{}, r.Verdicts...), Sent: r.Sent, Forced: r.Forced,
		DurationMs: durationMs(r.Ms()), Error: requestError(r), Findings: r.Findings}
	var res struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if json.Unmarshal(r.Result, &res) == nil && res.Messages != nil {
		doc.Messages = res.Messages
	}
	return doc
}

// prompt prints a prompt: the verdicts, then each message by role with its
// content by type.
func (p *printer) prompt(doc promptDoc, r *session.RequestResult) {
	sent := p.sentState(doc.Sent, doc.Forced)
	if doc.Sent {
		fmt.Fprintf(p.w, "%s · %s · %s · %s\n", p.bold(p.line(doc.Prompt)), sent, counted(r, len(doc.Messages), "message"), render.Ms(doc.DurationMs))
	} else {
		fmt.Fprintf(p.w, "%s · %s\n", p.bold(p.line(doc.Prompt)), sent)
	}
	p.verdicts(doc.Verdicts)
	p.failure(r)
	for _, raw := range doc.Messages {
		var m struct {
			Role    string  `json:"role"`
			Content content `json:"content"`
		}
		_ = json.Unmarshal(raw, &m)
		fmt.Fprintf(p.w, "\n%s\n", p.bold(orDash(p.line(m.Role))+":"))
		p.block(m.Content)
	}
}
