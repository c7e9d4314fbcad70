package report

import (
	"fmt"
	"slices"

	"mcpwitness/finding"
	"mcpwitness/fold"
	"mcpwitness/paging"
	"mcpwitness/record"
)

// Difference is what changed between two session files: their last
// complete tools/list walks compared tool by tool, and the verdicts of the
// tools both files called. Its JSON form is the document of
// `mcpwitness diff --json`; field names are a contract.
type Difference struct {
	// Equal is true when nothing below differs.
	Equal  bool `json:"equal"`
	Before Side `json:"before"`
	After  Side `json:"after"`
	// Config says whether the two sessions talked to the same server
	// configuration (nil when neither file knows its configuration's
	// hash); a different one does not make them unequal.
	Config *ConfigChange `json:"config,omitempty"`
	// Added are the tools only the second walk listed, Removed those only
	// the first did, each where its walk had it.
	Added   []PlacedTool `json:"added"`
	Removed []PlacedTool `json:"removed"`
	// Changed are the tools both listed whose definitions differ.
	Changed []ChangedTool `json:"changed"`
	// Moved are the tools whose order relative to the others changed;
	// Repaged are those in the same order that arrived on another page.
	Moved   []MovedTool `json:"moved"`
	Repaged []MovedTool `json:"repaged"`
	// Verdicts are the tools called in both files whose last call's
	// verdicts differ.
	Verdicts []VerdictChange `json:"verdicts"`

	// compared counts the tools called in both files, whose verdicts were
	// compared: with none, "the same verdicts" would claim what was not
	// checked.
	compared int
}

// Side describes one file of a [Difference] and the walk compared.
type Side struct {
	File   string      `json:"file"`
	Server *ServerSide `json:"server"`
	Walk   WalkSide    `json:"walk"`
}

// ServerSide is the server a file recorded.
type ServerSide struct {
	Name            string `json:"name"`
	Version         string `json:"version"`
	ProtocolVersion string `json:"protocolVersion"`
}

// WalkSide is the walk compared: its id in the file, pages, tools and the
// generation of its last page.
type WalkSide struct {
	ID         int64 `json:"id"`
	Pages      int   `json:"pages"`
	Tools      int   `json:"tools"`
	Generation int64 `json:"generation"`
}

// PlacedTool is a tool and where a walk had it.
type PlacedTool struct {
	Name string `json:"name"`
	paging.Place
}

// ChangedTool is a tool whose definition changed: Parts names what changed
// in words (description, input schema, output schema, execution,
// annotations, title, other), Fields the top-level fields exactly.
type ChangedTool struct {
	Name   string   `json:"name"`
	Parts  []string `json:"parts"`
	Fields []string `json:"fields"`
}

// MovedTool is a tool and where each walk had it.
type MovedTool struct {
	Name   string       `json:"name"`
	Before paging.Place `json:"before"`
	After  paging.Place `json:"after"`
}

// VerdictChange is a tool called in both files whose last call's verdicts
// differ, check by check.
type VerdictChange struct {
	Tool       string        `json:"tool"`
	BeforeCall int64         `json:"beforeCall"`
	AfterCall  int64         `json:"afterCall"`
	Checks     []CheckChange `json:"checks"`
}

// CheckChange is one check's status in each file; "" when the call did not
// run it.
type CheckChange struct {
	Check  string         `json:"check"`
	Before finding.Status `json:"before"`
	After  finding.Status `json:"after"`
}

// Compare compares the last complete tools/list walk of a with that of b,
// and the verdicts of the last call of each tool both called. A file with
// no complete tools walk is an error that says so.
func Compare(a, b *record.File) (*Difference, error) {
	sa, wa, err := summarizeWalk(a)
	if err != nil {
		return nil, err
	}
	sb, wb, err := summarizeWalk(b)
	if err != nil {
		return nil, err
	}
	d := paging.DiffWalks(paging.Tools(), toolPages(wa), toolPages(wb))
	out := &Difference{Before: side(sa, wa), After: side(sb, wb),
		Added: placed(d.Added), Removed: placed(d.Removed), Changed: []ChangedTool{},
		Moved: moved(d.Moved), Repaged: moved(d.Repaged),
		Config: compareConfig(a.Header().Target.Config, b.Header().Target.Config)}
	out.Verdicts, out.compared = verdictChanges(sa, sb)
	for _, c := range d.Changed {
		out.Changed = append(out.Changed, ChangedTool{Name: c.Key, Parts: parts(c.Fields), Fields: c.Fields})
	}
	out.Equal = d.Equal() && len(out.Verdicts) == 0
	return out, nil
}

// summarizeWalk folds f and finds its last complete tools walk.
func summarizeWalk(f *record.File) (*Summary, *fold.Walk, error) {
	s, err := summarize(f)
	if err != nil {
		return nil, nil, err
	}
	w, err := lastToolsWalk(s)
	return s, w, err
}

// lastToolsWalk returns the last complete tools walk, or an error saying
// why there is none.
func lastToolsWalk(s *Summary) (*fold.Walk, error) {
	var last, complete *fold.Walk
	for _, w := range s.Walks {
		if w.Method == paging.Tools().Name {
			last = w
			if w.Complete() {
				complete = w
			}
		}
	}
	if complete != nil {
		return complete, nil
	}
	why := "it has no tools/list walk"
	if last != nil {
		why = fmt.Sprintf("its last tools/list walk (walk %d) is %s", last.ID, walkState(last))
	}
	how := "mcpwitness tools --record FILE"
	if last != nil && last.Stopped() {
		how += " (or call --walk-all --record FILE)"
	}
	return nil, fmt.Errorf("%s has no complete tools/list walk: %s; record one with: %s", s.Name, why, how)
}

func side(s *Summary, w *fold.Walk) Side {
	out := Side{File: s.Name, Walk: WalkSide{ID: w.ID, Pages: len(w.Pages), Tools: w.Items, Generation: w.Generation}}
	if s.Server != nil {
		out.Server = &ServerSide{Name: s.Server.Name, Version: s.Server.Version, ProtocolVersion: s.Server.ProtocolVersion}
	}
	return out
}

func placed(in []paging.Placed) []PlacedTool {
	out := []PlacedTool{}
	for _, p := range in {
		out = append(out, PlacedTool{Name: p.Key, Place: p.Place})
	}
	return out
}

func moved(in []paging.Move) []MovedTool {
	out := []MovedTool{}
	for _, m := range in {
		out = append(out, MovedTool{Name: m.Key, Before: m.Before, After: m.After})
	}
	return out
}

// partNames are the parts of a tool definition named in words.
var partNames = [...][2]string{
	{"description", "description"}, {"inputSchema", "input schema"}, {"outputSchema", "output schema"},
	{"execution", "execution"}, {"annotations", "annotations"}, {"title", "title"},
}

// parts names the changed fields in words, in a fixed order; fields with
// no name of their own are "other", and a definition that is not an
// object "definition".
func parts(fields []string) []string {
	var out []string
	for _, p := range partNames {
		if slices.Contains(fields, p[0]) {
			out = append(out, p[1])
		}
	}
	for _, f := range fields {
		known := false
		for _, p := range partNames {
			known = known || p[0] == f
		}
		switch {
		case f == "" && !slices.Contains(out, "definition"):
			out = append(out, "definition")
		case f != "" && !known && f != "name" && !slices.Contains(out, "other"):
			out = append(out, "other")
		}
	}
	return out
}

// verdictChanges compares the last call of each tool called in both files;
// it returns the changes and how many tools it compared.
func verdictChanges(a, b *Summary) ([]VerdictChange, int) {
	last := func(s *Summary) map[string]*Call {
		m := map[string]*Call{}
		for _, c := range s.Calls {
			if c.Done {
				m[c.Tool] = c
			}
		}
		return m
	}
	la, lb := last(a), last(b)
	out, compared := []VerdictChange{}, 0
	for _, cb := range b.Calls {
		ca := la[cb.Tool]
		if ca == nil || lb[cb.Tool] != cb {
			continue
		}
		compared++
		var changes []CheckChange
		for _, name := range checkUnion(ca, cb) {
			var before, after finding.Status
			if v := ca.verdict(name); v != nil {
				before = v.Status
			}
			if v := cb.verdict(name); v != nil {
				after = v.Status
			}
			if before != after {
				changes = append(changes, CheckChange{Check: name, Before: before, After: after})
			}
		}
		if len(changes) > 0 {
			out = append(out, VerdictChange{Tool: cb.Tool, BeforeCall: ca.ID, AfterCall: cb.ID, Checks: changes})
		}
	}
	return out, compared
}

// checkUnion returns the checks either call ran, known ones first.
func checkUnion(a, b *Call) []string {
	s := &Summary{Calls: []*Call{a, b}}
	var out []string
	for _, name := range s.checkNames() {
		if a.verdict(name) != nil || b.verdict(name) != nil {
			out = append(out, name)
		}
	}
	return out
}
