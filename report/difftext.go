package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"mcpwitness/paging"
	"mcpwitness/sanitize"
)

// maxRepaged is how many tools on another page the text names.
const maxRepaged = 8

// WriteText writes the difference for a terminal: the two walks compared,
// one aligned line per tool added, removed, changed or moved and per
// verdict that changed, and a closing count. Of the tools that only
// arrived on another page, the first few are named; the JSON form lists
// them all. It writes through sc (nil: the user's key; see [Scrubber]).
func (d *Difference) WriteText(w io.Writer, sc *Scrubber) error {
	sc = sc.or()
	var b bytes.Buffer
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, s := range []struct {
		label string
		side  Side
	}{{"before", d.Before}, {"after", d.After}} {
		fmt.Fprintf(tw, "%s\t%s\t%s · walk %d · %s on %s · gen %d\n", s.label, sanitize.Line(s.side.File), serverLabel(s.side.Server),
			s.side.Walk.ID, plural(s.side.Walk.Tools, "tool"), plural(s.side.Walk.Pages, "page"), s.side.Walk.Generation)
	}
	tw.Flush()
	if d.Config != nil {
		fmt.Fprintf(&b, "%s\n", d.Config)
	}
	if d.Equal {
		fmt.Fprintf(&b, "\nno differences: the same %s in the same order on the same pages, %s\n", plural(d.After.Walk.Tools, "tool"), d.sameVerdicts())
		return sc.write(w, b.String())
	}
	b.WriteString("\n")
	tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	for _, t := range d.Added {
		fmt.Fprintf(tw, "+ added\t%s\t%s\n", sanitize.Line(t.Name), where(t.Place))
	}
	for _, t := range d.Removed {
		fmt.Fprintf(tw, "- removed\t%s\t%s\n", sanitize.Line(t.Name), where(t.Place))
	}
	for _, t := range d.Changed {
		fmt.Fprintf(tw, "~ changed\t%s\t%s\n", sanitize.Line(t.Name), sanitize.Line(strings.Join(t.Parts, ", ")))
	}
	for _, t := range d.Moved {
		fmt.Fprintf(tw, "↕ moved\t%s\t%s → %s\n", sanitize.Line(t.Name), where(t.Before), where(t.After))
	}
	for _, v := range d.Verdicts {
		for _, c := range v.Checks {
			fmt.Fprintf(tw, "! verdict\t%s\t%s: %s → %s\n", sanitize.Line(v.Tool), sanitize.Line(c.Check),
				sanitize.Line(statusWord(string(c.Before))), sanitize.Line(statusWord(string(c.After))))
		}
	}
	for i, t := range d.Repaged {
		if i == maxRepaged {
			fmt.Fprintf(tw, "  paged\t… %d more\t(--json lists them all)\n", len(d.Repaged)-maxRepaged)
			break
		}
		fmt.Fprintf(tw, "  paged\t%s\t%s → %s\n", sanitize.Line(t.Name), where(t.Before), where(t.After))
	}
	tw.Flush()
	fmt.Fprintf(&b, "\n%d added · %d removed · %d changed · %d moved · %d on another page · %s\n",
		len(d.Added), len(d.Removed), len(d.Changed), len(d.Moved), len(d.Repaged), plural(len(d.Verdicts), "verdict change"))
	return sc.write(w, b.String())
}

// sameVerdicts says what an equal difference knows of the verdicts: the
// same for the tools called in both files, or nothing when no tool was.
func (d *Difference) sameVerdicts() string {
	switch d.compared {
	case 0:
		return "no tool called in both to compare verdicts"
	case 1:
		return "and the same verdicts for the 1 tool called in both"
	}
	return fmt.Sprintf("and the same verdicts for the %d tools called in both", d.compared)
}

func serverLabel(s *ServerSide) string {
	if s == nil {
		return "unknown server"
	}
	return sanitize.Line(strings.TrimSpace(s.Name + " " + s.Version))
}

func where(p paging.Place) string {
	return fmt.Sprintf("page %d #%d", p.Page, p.Index)
}

func statusWord(s string) string {
	if s == "" {
		return "not run"
	}
	return s
}

// plural returns "1 tool", "2 tools".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
