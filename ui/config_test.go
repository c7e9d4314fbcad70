package ui

import (
	"context"
	"testing"

	"mcpwitness/themes"
)

// The UI takes the theme and NO_COLOR as its caller resolved them, for a
// live session and for a replay: the environment is not read again.
func TestThemeAndColourComeFromTheCaller(t *testing.T) {
	ctx := context.Background()
	for _, env := range []string{"1", ""} {
		t.Setenv("NO_COLOR", env)
		for _, noColor := range []bool{true, false} {
			live := liveOptions(ctx, Config{Theme: themes.Light, NoColor: noColor}, nil, nil)
			replay := replayOptions(ctx, OpenConfig{Theme: themes.Light, NoColor: noColor}, nil, nil)
			for name, o := range map[string]options{"live": live, "replay": replay} {
				if o.NoColor != noColor || o.Theme != themes.Light {
					t.Errorf("%s with NO_COLOR=%q and NoColor %v: options say NoColor %v, theme %q", name, env, noColor, o.NoColor, o.Theme)
				}
			}
		}
	}
}
