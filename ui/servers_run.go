package ui

import (
	"context"
	"errors"
	"sync"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
	"mcpwitness/session"
)

// Server is one server of a UI over several: the names a config file gives
// it (several when entries have one config hash) and its target.
type Server struct {
	Names  []string
	Target session.Target
}

// RunServers opens the UI over several servers at once: each connects in
// the background on its own (a slow or failing one never holds up the
// others) and has a screen of its own, as [Run] shows one server; S picks
// the server shown. cfg.Target is not used. Every server's events go to a
// log of its own, which the UI folds, and to cfg.Session.Log (when set)
// tagged with the server's names (see [record.Event.Source]), so one
// record or export holds them all. It returns when the user quits, after
// closing every session.
func RunServers(ctx context.Context, cfg Config, servers []Server) error {
	return runServers(ctx, cfg, servers, terminal())
}

func runServers(ctx context.Context, cfg Config, servers []Server, progOpts ...tea.ProgramOption) error {
	if len(servers) == 0 {
		return errors.New("no server to open")
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	tasks := newTasks()
	var wg sync.WaitGroup
	conns := make([]*conn, len(servers))
	logs := make([]*record.Log, len(servers))
	subs := make([]*record.Subscription, len(servers))
	views := make([]*serverView, len(servers))
	for i, srv := range servers {
		logs[i] = record.NewLog(nil)
		if cfg.Session.Log != nil {
			logs[i].AddSink(record.Forward(cfg.Session.Log, srv.Names))
		}
		subs[i] = logs[i].Subscribe()
		// Announced first, so a record of several servers names each with
		// its target and config identity.
		info := srv.Target.Describe()
		logs[i].Append(record.Event{Kind: record.KindServer, Target: &info})
		conns[i] = &conn{}
		opts := cfg.Session
		opts.Log = logs[i]
		target, c, log := srv.Target, conns[i], logs[i]
		target.NoAuthBrowser = true // o on the authorization screen opens it
		one := cfg
		one.Target = target
		dial := func(ctx context.Context) (Backend, error) {
			s, err := session.Dial(ctx, target, &opts)
			if err != nil {
				// Recorded, so that a replay says why the server failed.
				log.Append(record.Event{Kind: record.KindClosed, Text: "could not connect: " + err.Error()})
				return nil, err
			}
			if !c.set(s) {
				s.Close()
				return nil, errors.New("closed while connecting")
			}
			return s, nil
		}
		m := newModel(liveOptions(ctx, one, tasks, dialEarly(ctx, &wg, dial)))
		views[i] = &serverView{names: srv.Names, m: m}
		if id := target.Identity; id != nil {
			views[i].hash = id.Short()
		}
	}
	go Warm()
	root := newServersModel(views)
	p := tea.NewProgram(root, append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)

	for i, sub := range subs {
		wg.Go(func() { bridge(sub.C(), func(msg tea.Msg) { p.Send(serverMsg{i: i, msg: msg}) }) })
	}
	var notes *record.Subscription
	if cfg.Session.Log != nil {
		notes = cfg.Session.Log.Subscribe()
		wg.Go(func() { spoolNotes(notes.C(), len(views), p.Send) })
	}

	_, runErr := p.Run()

	// As Run shuts down, for every server.
	cancel()
	for _, c := range conns {
		if s := c.close(); s != nil {
			s.Close()
		}
	}
	tasks.closeAndWait()
	for i, sub := range subs {
		sub.Close()
		logs[i].Close()
	}
	if notes != nil {
		notes.Close()
	}
	wg.Wait()
	if errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil {
		runErr = nil
	}
	return runErr
}
