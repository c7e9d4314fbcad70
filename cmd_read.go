package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/record"
	"mcpwitness/render"
	"mcpwitness/session"
)

// readDoc is the --json document of `read`.
type readDoc struct {
	docHead
	Server     serverDoc         `json:"server"`
	URI        string            `json:"uri"`
	Contents   []json.RawMessage `json:"contents"`
	Verdicts   []finding.Verdict `json:"verdicts"`
	DurationMs float64           `json:"durationMs"`
	Error      *errorObj         `json:"error"`
}

// runRead reads one resource and checks its contents: mcpwitness read URI.
// With --follow it subscribes and reads it again on each
// notifications/resources/updated, until interrupted (or --count updates).
// Exit codes as call: 1 the read failed, 3 a verdict did not pass.
func runRead(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	uri := a.cfg.args[0]
	if a.cfg.follow && a.cfg.json {
		return usagef("read --follow reads again on every update, and --json prints one document: use --ndjson for the updates as they come")
	}
	if !a.cfg.follow {
		return a.readOnce(ctx, sess, uri)
	}
	return a.follow(ctx, sess, uri)
}

// readOnce reads uri, shows it and returns its exit.
func (a *app) readOnce(ctx context.Context, sess *session.Session, uri string) error {
	if !fold.ReadCaps(sess.Info().Capabilities).Resources {
		a.warn(fmt.Errorf("the server does not declare resources; reading %s all the same", a.pr.line(uri)))
	}
	r := sess.ReadResource(ctx, uri)
	doc := readDocument(serverDocument(sess.Info()), uri, r)
	a.show(doc, func() { a.pr.read(doc, r) })
	return requestExit(r)
}

// follow reads uri, subscribes to it and reads it again on each update
// until ctx ends or --count updates came. The exit is the worst read's.
func (a *app) follow(ctx context.Context, sess *session.Session, uri string) error {
	if !fold.ReadCaps(sess.Info().Capabilities).Subscribe {
		return connectFailed(errors.New("the server does not declare resources.subscribe, so it sends no updates to follow; read without --follow"))
	}
	updates := a.log.Subscribe()
	defer updates.Close()
	worst := a.readOnce(ctx, sess, uri)
	if why := errorText(sess.Subscribe(ctx, uri)); why != "" {
		return connectFailed(fmt.Errorf("subscribing to %s: %s", uri, why))
	}
	defer func() {
		uctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		sess.Unsubscribe(uctx, uri)
	}()
	if !a.cfg.ndjson {
		fmt.Fprintln(a.stderr, "following "+a.pr.line(uri)+"; Ctrl-C stops")
	}
	for seen := 0; a.cfg.count == 0 || seen < a.cfg.count; {
		select {
		case <-ctx.Done():
			return worst
		case ev, ok := <-updates.C():
			if !ok {
				return worst
			}
			if got, ok := record.UpdatedURI(ev); !ok || got != uri {
				continue
			}
			seen++
			if !a.cfg.ndjson {
				fmt.Fprintf(a.stdout, "\n%s\n", a.pr.dim("updated "+ev.T.Local().Format("15:04:05.000")))
			}
			if err := a.readOnce(ctx, sess, uri); err != nil && worst == nil {
				worst = err
			}
		}
	}
	return worst
}

// readDocument is the document of the read r of uri, made on server.
func readDocument(server serverDoc, uri string, r *session.RequestResult) readDoc {
	doc := readDoc{docHead: headOf("read"), Server: server, URI: uri, Contents: []json.RawMessage{},
		Verdicts: append([]finding.Verdict{}, r.Verdicts...), DurationMs: durationMs(r.Ms()), Error: requestError(r)}
	var res struct {
		Contents []json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(r.Result, &res) == nil && res.Contents != nil {
		doc.Contents = res.Contents
	}
	return doc
}

// read prints a read: the verdicts, then each item of contents by type.
func (p *printer) read(doc readDoc, r *session.RequestResult) {
	fmt.Fprintf(p.w, "%s · %s · %s\n", p.bold(p.line(doc.URI)), counted(r, len(doc.Contents), "item"), render.Ms(doc.DurationMs))
	p.verdicts(doc.Verdicts)
	p.failure(r)
	for _, raw := range doc.Contents {
		p.resourceItem(raw)
	}
}

// resourceItem prints one item of a read's contents: text as text (JSON
// indented), a blob as its type and size.
func (p *printer) resourceItem(raw json.RawMessage) {
	var c struct {
		URI      string  `json:"uri"`
		MIMEType string  `json:"mimeType"`
		Text     *string `json:"text"`
		Blob     *string `json:"blob"`
	}
	if json.Unmarshal(raw, &c) != nil {
		fmt.Fprintf(p.w, "\n%s\n", p.dim("[an item that is not an object]"))
		return
	}
	head := []string{orDash(p.line(c.URI))}
	if c.MIMEType != "" {
		head = append(head, p.line(c.MIMEType))
	}
	switch {
	case c.Text != nil:
		head = append(head, byteCount(len(*c.Text))+" of text")
	case c.Blob != nil:
		head = append(head, "blob "+base64Size(*c.Blob))
	}
	fmt.Fprintf(p.w, "\n%s\n", p.dim("["+strings.Join(head, " · ")+"]"))
	if c.Text == nil {
		return
	}
	p.resourceText(c.MIMEType, *c.Text)
}
