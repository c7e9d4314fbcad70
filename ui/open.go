package ui

import (
	"context"
	"errors"
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"

	"mcpwitness/session"
)

// OpenConfig is what [Open] needs.
type OpenConfig struct {
	Path  string // the session file
	Theme string // "" = auto: dark, or light on a light background, mono under NO_COLOR
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
	return open(ctx, cfg)
}

func open(ctx context.Context, cfg OpenConfig, progOpts ...tea.ProgramOption) error {
	if cfg.Theme != "" {
		if _, ok := lookupTheme(cfg.Theme); !ok {
			return fmt.Errorf("unknown theme %q; choose one of %s", cfg.Theme, themeList())
		}
	}
	r, err := openReplay(cfg.Path)
	if err != nil {
		return err
	}
	defer r.file.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tasks := newTasks()
	m := newModel(options{
		Theme:   cfg.Theme,
		NoColor: os.Getenv("NO_COLOR") != "",
		Ctx:     ctx,
		Tasks:   tasks,
		Replay:  r,
	})
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

// openReplay opens and indexes the session file at path.
func openReplay(path string) (*replay, error) {
	f, err := session.OpenFile(path)
	if err != nil {
		return nil, err
	}
	var size int64
	if st, err := os.Stat(path); err == nil {
		size = st.Size()
	}
	return newReplay(f, size), nil
}
