package ui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/render"
	"mcpwitness/replay"
)

// A replay's states are folded by the replay package in commands, never
// in Update: the model starts a [replay.Job], runs its turns in commands,
// and hands each back to the replay, which says what to show and what to
// run next.

// foldedMsg reports a fold's turn.
type foldedMsg struct{ job *replay.Job }

// startLoad starts the first pass over the file.
func (m *model) startLoad() tea.Cmd { return m.runFold(m.replay.Load()) }

// runFold gives j its next turn in a command; nil runs nothing.
func (m *model) runFold(j *replay.Job) tea.Cmd {
	if j == nil {
		return nil
	}
	ctx, f := m.o.Ctx, m.replay.File()
	return m.o.Tasks.cmd(func() tea.Msg {
		j.Run(ctx, f, replay.Turn)
		return foldedMsg{job: j}
	})
}

// folded takes a fold back after its turn, shows what the replay shows,
// and runs what it says to run next.
func (m *model) folded(j *replay.Job) tea.Cmd {
	r := m.replay
	o := r.Folded(j)
	if o.Err != nil {
		if m.o.Ctx.Err() != nil {
			return nil
		}
		m.St = r.State()
		msg := o.Err.Error()
		if o.Cut {
			// Show what was read.
			msg += fmt.Sprintf("; showing the first %s", plural64(int64(r.Len())))
		}
		return m.setStatus(msg, levelError)
	}
	m.St = r.State() // the panes share it
	cmd := m.runFold(o.Next)
	if o.Loaded {
		return tea.Batch(m.loadedStatus(), cmd)
	}
	return cmd
}

// moveTo asks for the state after t events: shown at once when a snapshot
// holds it, else folded in commands.
func (m *model) moveTo(t int) tea.Cmd {
	cmd := m.runFold(m.replay.MoveTo(t))
	m.St = m.replay.State()
	return cmd
}

// loadedStatus says the file is read, and what was forgiven.
func (m *model) loadedStatus() tea.Cmd {
	r := m.replay
	ws := r.File().Warnings()
	if len(ws) == 0 {
		return m.setStatus(fmt.Sprintf("read %s from %s", pluralEvents(r.Len()), r.Name()), levelOK)
	}
	msg := fmt.Sprintf("%s: %s", r.Name(), ws[0])
	if len(ws) > 1 {
		msg += fmt.Sprintf(" (and %d more warnings in the events pane)", len(ws)-1)
	}
	return m.setStatus(msg, levelWarn)
}

func pluralEvents(n int) string {
	if n == 1 {
		return "1 event"
	}
	return render.Thousands(int64(n)) + " events"
}
