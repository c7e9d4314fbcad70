package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/render"

	"mcpwitness/record"
	"mcpwitness/tooldef"
)

// extensionProtocol is the first protocol version whose tasks are the
// io.modelcontextprotocol/tasks extension, which has no tasks/list.
const extensionProtocol = "2026-07-28"

// taskDoc is a task in the documents of call --task and tasks.
type taskDoc struct {
	TaskID        string            `json:"taskId"`
	Status        record.TaskStatus `json:"status"`
	StatusMessage string            `json:"statusMessage,omitempty"`
	CreatedAt     string            `json:"createdAt,omitempty"`
	LastUpdatedAt string            `json:"lastUpdatedAt,omitempty"`
	// TTL is in milliseconds, null when the server said none or null.
	TTL          *int64 `json:"ttlMs"`
	PollInterval int64  `json:"pollIntervalMs,omitempty"`
	AgeMs        int64  `json:"ageMs"`
	// Call is the call of this session that made the task, if one did.
	Call *taskCallRef `json:"call,omitempty"`
	// Page and Generation say which tasks/list page listed it (0: none).
	Page       int           `json:"page,omitempty"`
	Generation int64         `json:"generation,omitempty"`
	History    []taskStepDoc `json:"history"`
}

type taskCallRef struct {
	ID   int64  `json:"id"`
	Tool string `json:"tool"`
}

type taskStepDoc struct {
	T       time.Time         `json:"t"`
	Status  record.TaskStatus `json:"status"`
	Message string            `json:"statusMessage,omitempty"`
	Source  record.TaskSource `json:"source"`
}

// taskCallDoc is the --json document of call --task: the call's, and its
// task (null when none was made).
type taskCallDoc struct {
	callDoc
	Task *taskDoc `json:"task"`
}

// taskDocument is what the documents say of t (nil: no task).
func taskDocument(t *fold.Task) *taskDoc {
	if t == nil {
		return nil
	}
	d := &taskDoc{TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage, CreatedAt: t.CreatedAt,
		LastUpdatedAt: t.LastUpdatedAt, TTL: t.TTL, PollInterval: t.PollInterval, AgeMs: t.Age(time.Now()).Milliseconds(),
		History: []taskStepDoc{}}
	if t.Call != 0 {
		d.Call = &taskCallRef{ID: t.Call, Tool: t.Tool}
	}
	if t.Listed {
		d.Page, d.Generation = t.Page, t.Gen
	}
	for _, st := range t.Steps {
		d.History = append(d.History, taskStepDoc{T: st.T, Status: st.Status, Message: st.Message, Source: st.Source})
	}
	return d
}

// liveTaskLines prints each new status of a task, and each request of the
// server's and its answer, as they come, for people (not with --json or
// --ndjson, whose events say it).
func (a *app) liveTaskLines() {
	if a.cfg.json || a.cfg.ndjson {
		return
	}
	p := a.pr
	// A status is printed when it is news: a server that notifies the
	// status its CreateTaskResult gave (or polls that repeat it) does not
	// print it twice. Sinks run one at a time, in order.
	last := map[string]string{}
	a.log.AddSink(func(ev record.Event) {
		switch {
		case ev.Kind == record.KindTask && ev.Task != nil:
			line := taskLine(ev.Task.TaskID, ev.Task.Status, ev.Task.StatusMessage)
			if last[ev.Task.TaskID] == line {
				return
			}
			last[ev.Task.TaskID] = line
			fmt.Fprintf(p.w, "%s %s\n", p.dim("task"), p.line(line))
		case ev.Kind == record.KindServerCall:
			for _, l := range askLines(ev) {
				fmt.Fprintf(p.w, "%s %s\n", p.dim("server"), p.line(l))
			}
		}
	})
}

// askLines say a server-request event: the request with its message (and
// a URL to open, shown whole), or what was answered.
func askLines(ev record.Event) []string {
	head := ev.Method
	if ev.ID != "" {
		head += " " + ev.ID
	}
	if ev.Text != "asked" && !strings.HasPrefix(ev.Text, "asked (") {
		return []string{head + ": " + ev.Text}
	}
	var p struct {
		Mode          string `json:"mode"`
		Message       string `json:"message"`
		URL           string `json:"url"`
		ElicitationID string `json:"elicitationId"`
	}
	_ = json.Unmarshal(ev.Data, &p)
	if ev.Call != nil && ev.Call.ID != 0 {
		head += fmt.Sprintf(" (call #%d)", ev.Call.ID)
	}
	out := []string{head + ": " + ev.Text}
	if p.Message != "" {
		out[0] += ": " + p.Message
	}
	if p.Mode == "url" {
		out = append(out, head+": URL to open: "+p.URL)
	}
	return out
}

// taskLine is "t-1 working: scene 2 of 4".
func taskLine(id string, st record.TaskStatus, msg string) string {
	s := id + " " + string(st)
	if msg != "" {
		s += ": " + msg
	}
	return s
}

// taskCall prints the task of a call --task after the call.
func (p *printer) taskCall(doc taskCallDoc) {
	if doc.Task == nil {
		if !doc.Sent && refusedTaskSupport(doc.Verdicts) {
			fmt.Fprintf(p.w, "%s\n", p.dim("The tool does not allow tasks; call it without --task."))
		}
		return
	}
	t := doc.Task
	ttl := "ttl none"
	if t.TTL != nil {
		ttl = render.TTL(int(*t.TTL))
	}
	fmt.Fprintf(p.w, "\n%s %s · %s · %d statuses\n", p.bold("task"), p.line(taskLine(t.TaskID, t.Status, t.StatusMessage)), ttl, len(t.History))
}

// offerTask says, under a plain call refused for its task support, that
// --task runs it.
func (p *printer) offerTask(c *fold.Call, def json.RawMessage) {
	if c.Sent || !refusedTaskSupport(c.Verdicts) {
		return
	}
	if d, _ := tooldef.Parse(def); d.TaskSupport == "required" || d.TaskSupport == "optional" {
		fmt.Fprintf(p.w, "%s\n", p.dim("--task runs it as a task."))
	}
}

func refusedTaskSupport(vs []finding.Verdict) bool {
	for _, v := range vs {
		if v.Check == finding.TaskSupport && v.Status == finding.Refused {
			return true
		}
	}
	return false
}

// tasksDoc is the --json document of `tasks`.
type tasksDoc struct {
	docHead
	Server serverDoc `json:"server"`
	// Walk is null when the server does not declare tasks.
	Walk     *walkDoc          `json:"walk"`
	Tasks    []*taskDoc        `json:"tasks"`
	Findings []finding.Finding `json:"findings"`
}

// runTasks walks every page of tasks/list: mcpwitness tasks. Exit codes as
// tools: 1 when the walk failed, 3 when it was incomplete. A server that
// does not declare tasks is not asked, as prompts and resources do: a
// finding says so, exit 0. On protocol
// 2026-07-28 and later tasks are the io.modelcontextprotocol/tasks
// extension, which has no tasks/list: nothing is sent, and the command
// says so with exit code 2 (a usage error: --protocol 2025-11-25 lists).
func runTasks(ctx context.Context, a *app) error {
	sess, err := a.dial(ctx)
	if err != nil {
		return err
	}
	defer sess.Close()
	info := sess.Info()
	if info.ProtocolVersion >= extensionProtocol {
		return usagef("tasks: the server negotiated protocol %s, where tasks are the io.modelcontextprotocol/tasks extension, "+
			"which has no tasks/list (a client knows the tasks its own calls made: call TOOL follows them); "+
			"--protocol 2025-11-25 lists a server's tasks with tasks/list", info.ProtocolVersion)
	}
	l, exit := a.walkLists(ctx, sess, declaresTasks(info.Capabilities), "tasks", paging.Tasks())
	doc := tasksDoc{docHead: headOf("tasks"), Server: serverDocument(info), Walk: l.walk(), Tasks: []*taskDoc{}, Findings: l.findings}
	foldLog(a.log).read(func(st *fold.State) {
		w := st.Latest(paging.Tasks().Name)
		for _, t := range st.Tasks() {
			if w != nil && t.Listed && t.Walk == w.ID {
				doc.Tasks = append(doc.Tasks, taskDocument(t))
			}
		}
	})
	a.show(doc, func() { a.pr.tasks(doc) })
	return exit
}

// declaresTasks reports whether a server with capabilities declares tasks.
func declaresTasks(capabilities json.RawMessage) bool {
	var caps struct {
		Tasks json.RawMessage `json:"tasks"`
	}
	_ = json.Unmarshal(capabilities, &caps)
	return len(caps.Tasks) > 0 && string(caps.Tasks) != "null"
}

// tasks prints the tasks document.
func (p *printer) tasks(doc tasksDoc) {
	p.server(doc.Server)
	fmt.Fprintln(p.w)
	if doc.Walk == nil {
		// Nothing was asked: no empty table, only the finding saying why.
		for _, f := range doc.Findings {
			fmt.Fprintf(p.w, "%s %s: %s\n", p.severity(f.Severity), f.Check, p.line(f.Message))
		}
		return
	}
	tw := tabwriter.NewWriter(p.w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, p.dim(strings.Join([]string{"TASK", "STATUS", "TTL", "AGE", "CALL", "PAGE", "MESSAGE"}, "\t")))
	for _, t := range doc.Tasks {
		ttl := "none"
		if t.TTL != nil {
			ttl = strings.TrimPrefix(render.TTL(int(*t.TTL)), "ttl ")
		}
		call := "-"
		if t.Call != nil {
			call = fmt.Sprintf("#%d %s", t.Call.ID, p.line(t.Call.Tool))
		}
		age := render.Ms(float64(t.AgeMs))
		fmt.Fprintln(tw, strings.Join([]string{short(p.line(t.TaskID), 28), string(t.Status), ttl, age, call,
			fmt.Sprint(t.Page), orDash(short(p.line(t.StatusMessage), 48))}, "\t"))
	}
	tw.Flush()
	for _, f := range doc.Findings {
		fmt.Fprintf(p.w, "%s %s: %s\n", p.severity(f.Severity), f.Check, p.line(f.Message))
	}
	for _, w := range walkList(doc.Walk) {
		state := p.green("✓ complete")
		if !w.Complete {
			state = p.red("⚠ incomplete: " + w.Incomplete)
		}
		fmt.Fprintf(p.w, "\n%s %s · %s · %s · gen %d\n", w.Method, state, nouns(w.Items, "task"), nouns(w.Pages, "page"), w.Generation)
	}
}
