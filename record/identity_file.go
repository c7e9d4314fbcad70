package record

import (
	"cmp"
	"slices"
	"strings"
)

// FileServer is one server of a session file of several: the names its
// events carry in [Event.Source], its target (redacted, with its config
// identity) as its [KindServer] event told, and how many events it has.
type FileServer struct {
	Names  []string
	Target *TargetInfo
	Events int
}

// Name is the server's names joined, as lists show it.
func (s FileServer) Name() string { return strings.Join(s.Names, " = ") }

// Servers reads which servers the file's events came from, in the order
// each first appears, and returns the events of each as a file of its own
// (sharing f's reader: [File.Event] reads them, and a page's items from the
// frame it names, as in f; its meta describes that server; closing it does
// not close f). A file of one server (every file written before several
// servers could be recorded at once) has none: its first event carries no
// source, and nothing more is read. Else every line is read once.
func (f *File) Servers() ([]FileServer, []*File, error) {
	if len(f.starts) == 0 {
		return nil, nil, nil
	}
	if first, err := f.Event(0); err != nil || len(first.Source) == 0 {
		return nil, nil, err
	}
	var servers []FileServer
	var files []*File
	at := map[string]int{}
	for i := range f.starts {
		line, err := f.RawLine(i)
		if err != nil {
			return nil, nil, err
		}
		ev, err := decodeEvent(line)
		if err != nil || len(ev.Source) == 0 {
			continue
		}
		key := strings.Join(ev.Source, "\x00")
		j, ok := at[key]
		if !ok {
			j = len(servers)
			at[key] = j
			servers = append(servers, FileServer{Names: ev.Source})
			files = append(files, f.part())
		}
		servers[j].Events++
		g := files[j]
		g.starts = append(g.starts, f.starts[i])
		g.ends = append(g.ends, f.ends[i])
		switch {
		case ev.Kind == KindServer && ev.Target != nil && servers[j].Target == nil:
			servers[j].Target = ev.Target
			g.meta.Target, g.header.Target = *ev.Target, *ev.Target
		case ev.Kind == KindConnect && g.meta.Server == nil && ev.Server != nil:
			g.meta.Server = ev.Server
		}
		if g.meta.First.IsZero() {
			g.meta.First = ev.T
		}
		g.meta.Last = ev.T
	}
	for _, g := range files {
		g.meta.Events = len(g.starts)
		if from := cmp.Or(g.meta.Started, g.meta.First); !from.IsZero() && g.meta.Last.After(from) {
			g.meta.Span = g.meta.Last.Sub(from)
		}
	}
	return servers, files, nil
}

// part is an empty file on f's reader, with f's header and warnings.
func (f *File) part() *File {
	g := &File{r: f.r, name: f.name, size: f.size, maxLine: f.maxLine, header: f.header,
		warnings: f.warnings, dropped: f.dropped, skipped: f.skipped, cut: f.cut}
	g.meta = ReplayInfo{Name: f.meta.Name, Tool: f.meta.Tool, Target: f.meta.Target, Started: f.meta.Started}
	return g
}

// SameNames reports whether two servers are named alike: the same names,
// in any order.
func SameNames(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// keptFrames is how many recent wire events' numbers a forward keeps, so
// that a page names the frame it was read from in the shared log.
const keptFrames = 4096

// Forward returns a sink for a server's log (see [Log.AddSink]) that
// copies each event to the shared log, tagged
// with the server's names. A page names the wire event its items came in
// by sequence number, which the shared log numbers anew, so the number is
// carried over.
func Forward(shared *Log, names []string) func(Event) {
	seqs := map[int64]int64{} // a wire event's number in the server's log → in the shared log
	return func(ev Event) {
		old := ev.Seq
		if ev.Page != nil && ev.Page.Frame != 0 {
			p := *ev.Page
			p.Frame = seqs[p.Frame]
			ev.Page = &p
		}
		ev.Source = names
		out := shared.Append(ev)
		if ev.Kind == KindWire {
			seqs[old] = out.Seq
			// A page follows its frame closely: keep the recent numbers.
			if len(seqs) > 2*keptFrames {
				for k := range seqs {
					if k < old-keptFrames {
						delete(seqs, k)
					}
				}
			}
		}
	}
}
