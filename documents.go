package main

import (
	"encoding/json"
	"math"
	"strings"
	"sync"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"

	"mcpwitness/record"
	"mcpwitness/tooldef"
)

// schemaVersion is the version of every --json document's shape, which
// docs/schemas/ describes: it grows when a field changes meaning or goes.
const schemaVersion = 1

// docHead opens every --json document: the kind of document (the command's
// name, or "error") and the version of its shape.
type docHead struct {
	Kind          string `json:"kind"`
	SchemaVersion int    `json:"schemaVersion"`
}

// headOf is the head of a document of kind.
func headOf(kind string) docHead { return docHead{Kind: kind, SchemaVersion: schemaVersion} }

// The JSON documents of --json. Field names are a contract, described by
// docs/schemas/: the shared blocks (serverDoc, walkDoc, errorObj) have one
// shape in every document, and durations are milliseconds named …Ms.
type (
	toolsDoc struct {
		docHead
		Server   serverDoc         `json:"server"`
		Walk     walkDoc           `json:"walk"`
		Pages    []pageDoc         `json:"pages"`
		Tools    []toolDoc         `json:"tools"`
		Findings []finding.Finding `json:"findings"`
		// listed, when set, stands for Tools: the walk's own records,
		// each made a toolDoc as it is written (see [toolsDocumentOf]).
		listed *listedTools
	}
	// serverDoc is the server block of every document of a command that
	// connects: who answered, over what, and what was dialled.
	serverDoc struct {
		Name            string `json:"name"`
		Version         string `json:"version"`
		ProtocolVersion string `json:"protocolVersion"`
		// AskedProtocol is the --protocol the server did not settle on.
		AskedProtocol string `json:"askedProtocol,omitempty"`
		Transport     string `json:"transport"`
		// Target describes what was dialled, its secrets masked.
		Target string `json:"target"`
		// ConfigHash is the hash of the server's configuration identity.
		ConfigHash string `json:"configHash,omitempty"`
	}
	// walkDoc is the summary of one list's walk, the same in every
	// document: `walk` where a command walks one list, `walks` keyed by
	// method where it walks several.
	walkDoc struct {
		Method     string `json:"method"`
		Complete   bool   `json:"complete"`
		Incomplete string `json:"incomplete"`
		Pages      int    `json:"pages"`
		Items      int    `json:"items"`
		Generation int64  `json:"generation"`
		// ListChanged: the server said the list changed after the walk
		// started; what it read may be out of date.
		ListChanged bool `json:"listChanged"`
		// WalksTaken is how many walks the list took to settle; Settled
		// says the last held still (see [session.Session.WalkSettled]).
		WalksTaken int  `json:"walksTaken"`
		Settled    bool `json:"settled"`
		// NotOffered says the server answered an optional list with
		// "method not found": nothing to list, not a failure.
		NotOffered bool `json:"notOffered,omitempty"`
		// Error says why a walk that failed stopped.
		Error *errorObj `json:"error,omitempty"`
	}
	pageDoc struct {
		Page       int     `json:"page"`
		Items      int     `json:"items"`
		NextCursor string  `json:"nextCursor"`
		DurationMs float64 `json:"durationMs"`
		TTLMs      *int    `json:"ttlMs"`
		Generation int64   `json:"generation"`
	}
	toolDoc struct {
		Name            string          `json:"name"`
		Page            int             `json:"page"`
		Generation      int64           `json:"generation"`
		Held            bool            `json:"held"`
		TaskSupport     string          `json:"taskSupport"`
		HasOutputSchema bool            `json:"hasOutputSchema"`
		Definition      json.RawMessage `json:"definition"`
	}
	callDoc struct {
		docHead
		Server           serverDoc `json:"server"`
		Tool             string    `json:"tool"`
		Sent             bool      `json:"sent"`
		Listed           bool      `json:"listed"`
		Forced           bool      `json:"forced,omitempty"`
		Generation       int64     `json:"generation"`
		Stale            bool      `json:"stale"`
		ListedDuringCall bool      `json:"listedDuringCall"`
		// ListChanged: the server said its tool list changed after the
		// listing the checks used and before the answer.
		ListChanged bool              `json:"listChanged"`
		Verdicts    []finding.Verdict `json:"verdicts"`
		Findings    []finding.Finding `json:"findings,omitempty"`
		Result      json.RawMessage   `json:"result"`
		Error       *errorObj         `json:"error"`
		DurationMs  float64           `json:"durationMs"`
		// FoundOnPage is the page of the tools walk before the call that
		// listed the tool (0: none did); the walk stopped there unless
		// --walk-all.
		FoundOnPage int `json:"foundOnPage,omitempty"`
	}
)

// logFold is the fold of a headless command's log, for its documents. The
// log applies events on the session's goroutines, under its lock; the
// command reads the fold with [logFold.read] while frames may still come.
type logFold struct {
	mu sync.Mutex
	st *fold.State
}

// foldLog folds every event appended to log from now on.
func foldLog(log *record.Log) *logFold {
	f := &logFold{st: fold.New(nil)}
	log.AddSink(func(ev record.Event) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.st.Apply(ev)
	})
	return f
}

// read calls fn with the fold, holding it still.
func (f *logFold) read(fn func(st *fold.State)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn(f.st)
}

// serverDocument is what the documents say of the server.
func serverDocument(info record.ServerInfo) serverDoc {
	return serverDoc{Name: info.Name, Version: info.Version, ProtocolVersion: info.ProtocolVersion, AskedProtocol: info.AskedProtocol,
		Transport: info.Transport, Target: info.Target, ConfigHash: info.ConfigHash}
}

// toolsDocument is the document of the newest tools walk st folded.
func toolsDocument(info record.ServerInfo, st *fold.State) toolsDoc {
	w := st.LatestTools()
	doc := toolsHeader(info, w)
	if w == nil {
		return doc
	}
	held := st.Held(w)
	doc.Tools = make([]toolDoc, 0, len(w.Tools))
	for _, t := range w.Tools {
		doc.Tools = append(doc.Tools, toolDocOf(t, held))
	}
	return doc
}

// toolsDocumentOf is [toolsDocument] with its tools left in the walk's
// records, each made a toolDoc only as it is written: at 10,000 tools the
// whole []toolDoc (~0.8 MB) lived beside the fold's records while the
// document was built, the peak of the process's memory. The records are
// the walk's, which never change once it is done; the rest of the fold
// may go.
func toolsDocumentOf(info record.ServerInfo, st *fold.State) toolsDoc {
	w := st.LatestTools()
	doc := toolsHeader(info, w)
	if w != nil {
		doc.listed = &listedTools{tools: w.Tools, held: st.Held(w)}
	}
	return doc
}

// toolsHeader is the document of walk w (nil: none yet) without its tools.
func toolsHeader(info record.ServerInfo, w *fold.Walk) toolsDoc {
	doc := toolsDoc{
		docHead: headOf("tools"), Server: serverDocument(info), Walk: walkDoc{Method: paging.Tools().Name},
		Pages: []pageDoc{}, Tools: []toolDoc{}, Findings: []finding.Finding{},
	}
	if w == nil {
		return doc
	}
	doc.Walk = walkDocOf(paging.Tools().Name, w)
	if w.Findings != nil {
		doc.Findings = w.Findings
	}
	for _, p := range w.Pages {
		pd := pageDoc{Page: p.Number, Items: p.Count, NextCursor: p.NextCursor, DurationMs: durationMs(p.Ms), Generation: p.Generation}
		if p.HasTTL {
			ttl := p.TTLMs
			pd.TTLMs = &ttl
		}
		doc.Pages = append(doc.Pages, pd)
	}
	return doc
}

// listedTools are the tools of a document as the walk recorded them.
type listedTools struct {
	tools []*fold.Tool
	held  bool
}

// toolDocOf is the document of tool t, held or not.
func toolDocOf(t *fold.Tool, held bool) toolDoc {
	return toolDoc{
		Name: listedName(t), Page: t.Page, Generation: t.Gen, Held: held,
		TaskSupport: t.TaskSupport, HasOutputSchema: t.Output != nil, Definition: t.Raw,
	}
}

// toolCount is the number of tools of d.
func (d toolsDoc) toolCount() int {
	if d.listed != nil {
		return len(d.listed.tools)
	}
	return len(d.Tools)
}

// tool is the document of d's tool i.
func (d toolsDoc) tool(i int) toolDoc {
	if d.listed != nil {
		return toolDocOf(d.listed.tools[i], d.listed.held)
	}
	return d.Tools[i]
}

// listedName is the name a tool was listed with: "" when its definition
// has none that can be read (the fold shows such a tool as "(no name)" or
// "(unreadable)").
func listedName(t *fold.Tool) string {
	if t.Bad == "" {
		return t.Name
	}
	d, _ := tooldef.Parse(t.Raw)
	return d.Name
}

// walkDocOf is the summary of walk w of method (nil: not walked).
func walkDocOf(method string, w *fold.Walk) walkDoc {
	if w == nil {
		return walkDoc{Method: method}
	}
	// One walk, settled unless the list changed under it; a command that
	// walks again (see [session.Session.WalkSettled]) says how it went.
	d := walkDoc{Method: method, Complete: w.Complete(), Incomplete: string(w.Incomplete),
		Pages: len(w.Pages), Items: w.Items, Generation: w.Generation, ListChanged: w.Stale(),
		WalksTaken: 1, Settled: !w.Stale()}
	if w.Err != "" {
		d.Error = walkError(w.Err, w.Incomplete)
	}
	return d
}

// walkResultDoc is the summary of the walk res of method m, as the walk
// itself returned it.
func walkResultDoc(m paging.Method, res *paging.Result) walkDoc {
	d := walkDoc{Method: m.Name, Complete: res.Incomplete == paging.Complete, Incomplete: string(res.Incomplete),
		Pages: len(res.Pages), Generation: res.Generation, WalksTaken: 1, Settled: true}
	for _, p := range res.Pages {
		d.Items += p.Count
	}
	if res.Err != nil {
		d.Error = walkError(res.Err.Error(), res.Incomplete)
	}
	return d
}

// walkError is the error object of a walk that stopped on an error saying
// msg, for the incomplete reason why: a walk the user aborted was
// interrupted, one that ran out of time timed out, one whose server went
// away lost its connection, and any other failed on the server's answers.
func walkError(msg string, why paging.Incomplete) *errorObj {
	code := codeProtocol
	switch {
	case why == paging.Aborted:
		code = codeInterrupted
	case strings.Contains(msg, timeoutText):
		code = codeTimeout
	case strings.Contains(msg, "the server exited"), strings.Contains(msg, "connection"):
		code = codeConnect
	}
	return &errorObj{Code: code, Message: msg, ExitCode: exitConnect, Cancelled: code == codeTimeout || code == codeInterrupted}
}

// durationMs is a duration in milliseconds as every document gives it:
// to the microsecond.
func durationMs(ms float64) float64 { return math.Round(ms*1000) / 1000 }

// callDocument is the document of call c as the fold has it, made on
// server, with the findings the live call gave (they are not in the
// session file), the error that ended it (nil: none) and the page of the
// walk before it that listed the tool.
func callDocument(server serverDoc, c *fold.Call, err error, findings []finding.Finding, foundOnPage int) callDoc {
	doc := callDoc{docHead: headOf("call"), Server: server,
		Tool: c.Tool, Sent: c.Sent, Listed: c.Listed, Forced: c.Forced, Generation: c.Generation, Stale: c.Stale,
		ListedDuringCall: c.ListedDuring, ListChanged: c.ListChanged, Verdicts: c.Verdicts, Findings: findings,
		Result: c.Result, DurationMs: durationMs(c.Ms), FoundOnPage: foundOnPage}
	if doc.Verdicts == nil {
		doc.Verdicts = []finding.Verdict{}
	}
	if len(doc.Result) == 0 {
		doc.Result = json.RawMessage("null")
	}
	switch {
	case len(c.RPCError) > 0:
		doc.Error = rpcErrorObj(c.RPCError)
	case c.Err != "":
		doc.Error = requestErrorObj(c.Err, err, c.Cancelled)
	}
	return doc
}
