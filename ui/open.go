package ui

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/replay"
)

// OpenConfig is what [Open] needs. The caller checks the theme name and
// reads NO_COLOR.
type OpenConfig struct {
	Path    string // the session file
	Theme   string // a theme name [themes.Lookup] knows, or "" to choose: dark, light on a light background, mono with NoColor
	NoColor bool   // colour is off (NO_COLOR): "" Theme means mono
	// Terminal, if set, says why the screen cannot be drawn (no terminal);
	// it is asked once the file has opened, so a bad file is said first.
	Terminal func() error
}

// Open replays the session file at cfg.Path in the UI, read-only, with no
// server: the same panes as a live session, a badge saying it is a replay,
// and a scrubber that shows the session as it was after any of its events.
// It opens at the end of the session.
//
// A file that cannot be opened (missing, not a session file, a newer major
// format version) is an error returned before the screen changes. A damaged
// file opens as far as it can be read, and says what was left out. The file
// is indexed, not loaded: the UI reads events as it needs them, so a file
// of any size opens with memory bounded by the panes, not by the file.
func Open(ctx context.Context, cfg OpenConfig) error {
	return open(ctx, cfg, terminal())
}

func open(ctx context.Context, cfg OpenConfig, progOpts ...tea.ProgramOption) error {
	r, err := replay.Open(cfg.Path, nil)
	if err != nil {
		return err
	}
	defer r.File().Close()
	servers, files, err := r.File().Servers()
	if err != nil {
		return err
	}
	if cfg.Terminal != nil {
		if err := cfg.Terminal(); err != nil {
			return err
		}
	}
	if len(servers) > 0 {
		return openServers(ctx, cfg, servers, files, progOpts...)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tasks := newTasks()
	m := newModel(replayOptions(ctx, cfg, tasks, r))
	p := tea.NewProgram(m, append([]tea.ProgramOption{tea.WithContext(ctx)}, progOpts...)...)
	_, runErr := p.Run()

	// Stop the folds in flight and wait for them before the file closes.
	cancel()
	tasks.closeAndWait()
	if errors.Is(runErr, tea.ErrProgramKilled) && ctx.Err() != nil {
		runErr = nil
	}
	return runErr
}

// replayOptions are the model's options for the replay r: the theme and
// colour as the caller resolved them.
func replayOptions(ctx context.Context, cfg OpenConfig, tasks *tasks, r *replay.Replay) options {
	return options{Theme: cfg.Theme, NoColor: cfg.NoColor, Ctx: ctx, Tasks: tasks, Replay: r}
}
