package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"sync"

	"mcpwitness/checks"
	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/render"
	"mcpwitness/session"
	"mcpwitness/tooldef"
)

// The JSON documents of --json. Field names are a contract.
type (
	toolsDoc struct {
		Server   serverDoc         `json:"server"`
		Walk     walkDoc           `json:"walk"`
		Pages    []pageDoc         `json:"pages"`
		Tools    []toolDoc         `json:"tools"`
		Findings []finding.Finding `json:"findings"`
		// listed, when set, stands for Tools: the walk's own records,
		// each made a toolDoc as it is written (see [toolsDocumentOf]).
		listed *listedTools
	}
	serverDoc struct {
		Name            string `json:"name"`
		Version         string `json:"version"`
		ProtocolVersion string `json:"protocolVersion"`
		Transport       string `json:"transport,omitempty"`
		// ConfigHash is the hash of the server's configuration identity.
		ConfigHash string `json:"configHash,omitempty"`
		// AskedProtocol is the --protocol the server did not settle on.
		AskedProtocol string `json:"askedProtocol,omitempty"`
	}
	walkDoc struct {
		Complete   bool   `json:"complete"`
		Incomplete string `json:"incomplete"`
		Pages      int    `json:"pages"`
		Generation int64  `json:"generation"`
		Error      string `json:"error,omitempty"`
		// ListChanged: the server said its tool list changed after the
		// walk started; what it read may be out of date.
		ListChanged bool `json:"listChanged"`
	}
	pageDoc struct {
		Page       int     `json:"page"`
		Items      int     `json:"items"`
		NextCursor string  `json:"nextCursor"`
		Ms         float64 `json:"ms"`
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
		Tool             string `json:"tool"`
		Sent             bool   `json:"sent"`
		Listed           bool   `json:"listed"`
		Forced           bool   `json:"forced,omitempty"`
		Generation       int64  `json:"generation"`
		Stale            bool   `json:"stale"`
		ListedDuringCall bool   `json:"listedDuringCall"`
		// ListChanged: the server said its tool list changed after the
		// listing the checks used and before the answer.
		ListChanged bool              `json:"listChanged"`
		Verdicts    []checks.Verdict  `json:"verdicts"`
		Findings    []finding.Finding `json:"findings,omitempty"`
		Result      json.RawMessage   `json:"result"`
		Error       json.RawMessage   `json:"error"`
		Ms          float64           `json:"ms"`
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
func foldLog(log *session.Log) *logFold {
	f := &logFold{st: fold.New(nil)}
	log.AddSink(func(ev session.Event) {
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
func serverDocument(info session.ServerInfo) serverDoc {
	return serverDoc{Name: info.Name, Version: info.Version, ProtocolVersion: info.ProtocolVersion, Transport: info.Transport, ConfigHash: info.ConfigHash, AskedProtocol: info.AskedProtocol}
}

// toolsDocument is the document of the newest tools walk st folded.
func toolsDocument(info session.ServerInfo, st *fold.State) toolsDoc {
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
func toolsDocumentOf(info session.ServerInfo, st *fold.State) toolsDoc {
	w := st.LatestTools()
	doc := toolsHeader(info, w)
	if w != nil {
		doc.listed = &listedTools{tools: w.Tools, held: st.Held(w)}
	}
	return doc
}

// toolsHeader is the document of walk w (nil: none yet) without its tools.
func toolsHeader(info session.ServerInfo, w *fold.Walk) toolsDoc {
	doc := toolsDoc{
		Server: serverDocument(info),
		Pages:  []pageDoc{}, Tools: []toolDoc{}, Findings: []finding.Finding{},
	}
	if w == nil {
		return doc
	}
	doc.Walk = walkDoc{Complete: w.Incomplete == paging.Complete, Incomplete: string(w.Incomplete),
		Pages: len(w.Pages), Generation: w.Generation, Error: w.Err, ListChanged: w.Stale()}
	if w.Findings != nil {
		doc.Findings = w.Findings
	}
	for _, p := range w.Pages {
		pd := pageDoc{Page: p.Number, Items: p.Count, NextCursor: p.NextCursor, Ms: p.Ms, Generation: p.Generation}
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

// callDocument is the document of call c as the fold has it, with the
// findings the live call gave (they are not in the session file) and the
// page of the walk before it that listed the tool.
func callDocument(c *fold.Call, findings []finding.Finding, foundOnPage int) callDoc {
	doc := callDoc{
		Tool: c.Tool, Sent: c.Sent, Listed: c.Listed, Forced: c.Forced, Generation: c.Generation, Stale: c.Stale,
		ListedDuringCall: c.ListedDuring, ListChanged: c.ListChanged, Verdicts: c.Verdicts, Findings: findings,
		Result: c.Result, Error: c.RPCError, Ms: c.Ms, FoundOnPage: foundOnPage,
	}
	if doc.Verdicts == nil {
		doc.Verdicts = []checks.Verdict{}
	}
	if len(doc.Result) == 0 {
		doc.Result = json.RawMessage("null")
	}
	if len(doc.Error) == 0 {
		doc.Error = json.RawMessage("null")
		if c.Err != "" {
			e, _ := json.Marshal(map[string]any{"message": c.Err, "cancelled": c.Cancelled})
			doc.Error = e
		}
	}
	return doc
}

// errorDoc is the --json document of a command that failed before it had
// anything else to say: `{"error": {"message": …, "exitCode": 1}}`.
type errorDoc struct {
	Error struct {
		Code     string `json:"code,omitempty"`
		Message  string `json:"message"`
		ExitCode int    `json:"exitCode"`
	} `json:"error"`
}

func errorDocument(msg string, code int) errorDoc {
	var d errorDoc
	d.Error.Message, d.Error.ExitCode = msg, code
	return d
}

// writeJSON writes v as one indented JSON document: strict UTF-8 JSON
// (see [cleanJSON]) with every secret red knows replaced. A tools document
// is streamed (see [toolsDoc.writeJSON]).
func writeJSON(w io.Writer, v any, red *session.Redactor) error {
	if d, ok := v.(toolsDoc); ok {
		return d.writeJSON(w, red)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if b, err = cleanJSON(b); err != nil {
		return err
	}
	b = red.JSON(b)
	var out bytes.Buffer
	if err := json.Indent(&out, b, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}

// cleanJSON re-encodes the JSON text b so that any strict reader accepts it
// and a terminal shows it safely: invalid UTF-8 and lone surrogate escapes
// (which raw server frames embedded in a document may hold) become U+FFFD,
// and C0 and C1 controls, DEL, bidi controls and zero-width characters are
// written as \u escapes, which decode to the same string. Object keys keep
// their order. The raw bytes stay in the session file.
func cleanJSON(b []byte) ([]byte, error) {
	if plainJSON(b) {
		// Compact JSON as json.Marshal writes it, with no escape and no
		// byte outside printable ASCII, reads back to itself.
		return b, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type container struct {
		object bool
		n      int // values (and keys) written so far
	}
	var stack []container
	out := make([]byte, 0, len(b)+len(b)/16)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			out = append(out, byte(d))
			continue
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			switch {
			case top.object && top.n%2 == 1:
				out = append(out, ':')
			case top.n > 0:
				out = append(out, ',')
			}
			top.n++
		}
		switch v := tok.(type) {
		case json.Delim:
			stack = append(stack, container{object: v == '{'})
			out = append(out, byte(v))
		case string:
			out = appendJSONString(out, v)
		case json.Number:
			out = append(out, v...)
		case bool:
			out = strconv.AppendBool(out, v)
		case nil:
			out = append(out, "null"...)
		}
	}
	return out, nil
}

// plainJSON reports whether cleanJSON would give the JSON text b back
// unchanged: b holds only printable ASCII, no backslash, and no space
// outside its strings.
func plainJSON(b []byte) bool {
	inString := false
	for _, c := range b {
		switch {
		case c < 0x20 || c > 0x7e || c == '\\':
			return false
		case c == '"':
			inString = !inString
		case c == ' ' && !inString:
			return false
		}
	}
	return true
}

// appendJSONString appends s as json.Marshal writes it, with DEL, C1
// controls and every character the sanitiser shows escaped (bidi,
// zero-width, tag and other format characters, stray variation selectors,
// fillers, separators) written as \u escapes, beyond U+FFFF as surrogate
// pairs (see [render.SafeJSON]).
func appendJSONString(out []byte, s string) []byte {
	q, _ := json.Marshal(s)
	if !slices.ContainsFunc(q, func(c byte) bool { return c >= 0x7f }) {
		return append(out, q...)
	}
	return append(out, render.SafeJSON(string(q))...)
}

// writeJSON writes the tools document to w as [writeJSON] would write it,
// byte for byte, without building it whole: each field, and each tool of
// the tools array, is encoded, cleaned, redacted and indented on its own
// and written through one buffered writer as it is formatted.
func (d toolsDoc) writeJSON(w io.Writer, red *session.Redactor) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	s := docStream{w: bw, red: red}
	bw.WriteString("{\n")
	s.field("server", d.Server, false)
	s.field("walk", d.Walk, false)
	s.key("pages")
	writeArray(&s, d.Pages)
	bw.WriteString(",\n")
	s.key("tools")
	writeItems(&s, d.toolCount(), d.tool)
	bw.WriteString(",\n")
	s.field("findings", d.Findings, true)
	bw.WriteString("}\n")
	if s.err != nil {
		return s.err
	}
	return bw.Flush()
}

// docStream writes the parts of an indented JSON document; the first error
// stops it.
type docStream struct {
	w   *bufio.Writer
	red *session.Redactor
	buf bytes.Buffer
	err error
}

// key writes the name of a top-level field.
func (s *docStream) key(name string) {
	s.w.WriteString("  ")
	s.w.Write(appendJSONString(nil, name))
	s.w.WriteString(": ")
}

// field writes a whole top-level field.
func (s *docStream) field(name string, v any, last bool) {
	s.key(name)
	s.value(v, "  ")
	if !last {
		s.w.WriteByte(',')
	}
	s.w.WriteByte('\n')
}

// value writes v, indented as it would be at the depth prefix says.
func (s *docStream) value(v any, prefix string) {
	if s.err != nil {
		return
	}
	b, err := json.Marshal(v)
	if err == nil {
		b, err = cleanJSON(b)
	}
	if err == nil {
		s.buf.Reset()
		err = indentJSON(&s.buf, s.red.JSON(b), prefix, "  ")
	}
	if err != nil {
		s.err = err
		return
	}
	s.w.Write(s.buf.Bytes())
}

// writeArray writes the top-level array items, one item at a time.
func writeArray[T any](s *docStream, items []T) {
	writeItems(s, len(items), func(i int) T { return items[i] })
}

// writeItems writes a top-level array of n items, item(i) the i-th, made
// and written one at a time.
func writeItems[T any](s *docStream, n int, item func(int) T) {
	if n == 0 {
		s.w.WriteString("[]")
		return
	}
	s.w.WriteString("[\n")
	for i := range n {
		s.w.WriteString("    ")
		s.value(item(i), "    ")
		if i < n-1 {
			s.w.WriteByte(',')
		}
		s.w.WriteByte('\n')
	}
	s.w.WriteString("  ]")
}
