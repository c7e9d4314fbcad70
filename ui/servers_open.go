package ui

import (
	"context"
	"errors"
	"os"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/record"
	"mcpwitness/replay"
)

// openServers replays a session file of several servers: each server's
// events (see [record.File.Servers]) in a replay and a model of its own,
// under the root that lists them, as the live session showed them.
func openServers(ctx context.Context, cfg OpenConfig, servers []record.FileServer, files []*record.File, progOpts ...tea.ProgramOption) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tasks := newTasks()
	var size int64
	if st, err := os.Stat(cfg.Path); err == nil {
		size = st.Size()
	}
	root := replayServers(ctx, cfg, tasks, size, servers, files)
	p := tea.NewProgram(root, append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)
	_, runErr := p.Run()
	cancel()
	tasks.closeAndWait()
	if errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil {
		runErr = nil
	}
	return runErr
}

// replayServers is the root over a replay of each server of a file of
// size bytes, whose snapshots share the file's budget.
func replayServers(ctx context.Context, cfg OpenConfig, tasks *tasks, size int64, servers []record.FileServer, files []*record.File) *serversModel {
	views := make([]*serverView, len(servers))
	for i, srv := range servers {
		r := replay.New(files[i], &replay.Options{Size: size / int64(len(servers))})
		views[i] = &serverView{names: srv.Names, m: newModel(replayOptions(ctx, cfg, tasks, r))}
		if t := srv.Target; t != nil && t.Config != nil {
			views[i].hash = t.Config.Short()
		}
	}
	return newServersModel(views)
}
