package themes

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestNamesLookUpAndCycle(t *testing.T) {
	names := Names()
	if len(names) < 4 {
		t.Fatalf("want at least four themes, have %v", names)
	}
	seen := map[string]bool{}
	name := names[0]
	for range names {
		if _, ok := Lookup(name); !ok {
			t.Errorf("Lookup(%q) failed", name)
		}
		if _, ok := ByName(name); !ok {
			t.Errorf("ByName(%q) failed", name)
		}
		seen[name] = true
		name = Next(name)
	}
	if name != names[0] || len(seen) != len(names) {
		t.Errorf("Next does not visit every theme once and wrap: ended at %q, saw %v", name, seen)
	}
	if _, ok := Lookup("solarized"); ok {
		t.Error("Lookup of an unknown name succeeded")
	}
	if Next("unknown") != names[0] {
		t.Error("Next of an unknown name is not the first theme")
	}
}

// styles returns every lipgloss.Style field of s by name.
func styles(s Styles) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		if st, ok := v.Field(i).Interface().(lipgloss.Style); ok {
			out[v.Type().Field(i).Name] = st
		}
	}
	return out
}

func TestMonoHasNoColour(t *testing.T) {
	s, _ := ByName(Mono)
	for name, st := range styles(s) {
		if out := st.Render("x"); strings.Contains(out, "38;") || strings.Contains(out, "48;") {
			t.Errorf("mono style %s has a colour: %q", name, out)
		}
	}
	if !s.Selected.GetReverse() {
		t.Error("mono shows the selected row without reverse video")
	}
}

func TestColourThemesTellOutcomesApart(t *testing.T) {
	for _, name := range []string{Dark, Light, HighContrast} {
		s, _ := ByName(name)
		if s.Pass.GetForeground() == s.Fail.GetForeground() || s.Fail.GetForeground() == s.Warn.GetForeground() {
			t.Errorf("%s: pass, fail and warn share a colour", name)
		}
		if _, none := s.Selected.GetBackground().(lipgloss.NoColor); none {
			t.Errorf("%s: the selected row has no background", name)
		}
		if s.Help.ShortKey.Render("k") == "" {
			t.Errorf("%s: help styles are empty", name)
		}
	}
}
