package report

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"

	"mcpwitness/record"
	"mcpwitness/sanitize"
)

// ServerFile is one server of a session file of several: its names and
// its events as a file of their own (see [record.File.Servers]).
type ServerFile struct {
	Names []string
	File  *record.File
}

// SplitServers returns the servers of f, or nil when f is a session of one
// server.
func SplitServers(f *record.File) ([]ServerFile, error) {
	servers, files, err := f.Servers()
	if err != nil {
		return nil, err
	}
	var out []ServerFile
	for i, s := range servers {
		out = append(out, ServerFile{Names: s.Names, File: files[i]})
	}
	return out, nil
}

// name is the server's names joined.
func (s ServerFile) name() string { return strings.Join(s.Names, " = ") }

// MarkdownServers writes the report of a session of several servers: a
// table of the servers (names, config hash, server, walks, calls, failed
// calls), then each server's report as [Summary.Markdown] writes it, its
// headings one level down.
func MarkdownServers(w io.Writer, name string, servers []ServerFile, opts *MarkdownOptions) error {
	o := MarkdownOptions{}
	if opts != nil {
		o = *opts
	}
	// One scrubber for every server's part: the key is asked for once.
	o.Scrubber = o.Scrubber.or()
	opts = &o
	var b bytes.Buffer
	fmt.Fprintf(&b, "# mcpwitness session: %s\n\n", plural(len(servers), "server"))
	b.WriteString("| Server | Config hash | Reports as | Walks | Calls | Failed or refused |\n|---|---|---|---|---|---|\n")
	var parts []bytes.Buffer
	for _, srv := range servers {
		s, err := Summarize(srv.File, nil)
		if err != nil {
			return fmt.Errorf("%s, server %s: %w", name, sanitize.Line(srv.name()), err)
		}
		hash := "–"
		if c := s.Header.Target.Config; c != nil {
			hash = code(c.Short())
		}
		failed := 0
		for _, c := range s.Calls {
			if c.Failed() {
				failed++
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d |\n", cell(text(srv.name())), hash, cell(text(s.serverName())), len(s.Walks), len(s.Calls), failed)
		var part bytes.Buffer
		if err := s.Markdown(&part, opts); err != nil {
			return err
		}
		parts = append(parts, part)
	}
	b.WriteString("\n")
	for i, part := range parts {
		fmt.Fprintf(&b, "# Server %s\n\n", text(servers[i].name()))
		b.Write(demote(part.Bytes()))
		b.WriteString("\n")
	}
	return o.Scrubber.write(w, b.String())
}

// demote puts every heading of md one level down, leaving fenced blocks
// as they are.
func demote(md []byte) []byte {
	var out bytes.Buffer
	fenced := false
	for line := range bytes.Lines(md) {
		t := bytes.TrimLeft(line, " ")
		switch {
		case bytes.HasPrefix(t, []byte("```")):
			fenced = !fenced
		case !fenced && bytes.HasPrefix(line, []byte("#")):
			out.WriteByte('#')
		}
		out.Write(line)
	}
	return out.Bytes()
}

// ServersDifference is what changed between two session files when either
// holds several servers: the servers paired by name (a server pairs with
// the one of the other file that shares a name with it), each pair's
// difference, and the servers only one file has. Its JSON form is the
// document of `mcpwitness diff --json` for such files.
type ServersDifference struct {
	Equal   bool         `json:"equal"`
	Servers []ServerPair `json:"servers"`
	// OnlyBefore and OnlyAfter name the servers of one file only.
	OnlyBefore [][]string `json:"onlyBefore"`
	OnlyAfter  [][]string `json:"onlyAfter"`
}

// ServerPair is a server of each file paired by name, and their
// difference, or why they could not be compared.
type ServerPair struct {
	Before     []string    `json:"before"`
	After      []string    `json:"after"`
	Difference *Difference `json:"difference,omitempty"`
	Error      string      `json:"error,omitempty"`
}

// CompareServers pairs the servers of a and b by name and compares each
// pair as [Compare] does; one server on each side is a pair whatever
// their names. A pair whose config hashes differ says so in its difference.
func CompareServers(a, b []ServerFile) *ServersDifference {
	d := &ServersDifference{Equal: true, Servers: []ServerPair{}, OnlyBefore: [][]string{}, OnlyAfter: [][]string{}}
	used := make([]bool, len(b))
	for _, sa := range a {
		j := slices.IndexFunc(b, func(sb ServerFile) bool {
			return slices.ContainsFunc(sa.Names, func(n string) bool { return slices.Contains(sb.Names, n) })
		})
		if len(a) == 1 && len(b) == 1 {
			j = 0 // one server each: the same server, whatever its names
		}
		if j < 0 || used[j] {
			d.OnlyBefore = append(d.OnlyBefore, sa.Names)
			d.Equal = false
			continue
		}
		used[j] = true
		p := ServerPair{Before: sa.Names, After: b[j].Names}
		diff, err := Compare(sa.File, b[j].File)
		if err != nil {
			p.Error = err.Error()
			d.Equal = false
		} else {
			p.Difference = diff
			d.Equal = d.Equal && diff.Equal && (diff.Config == nil || diff.Config.Same)
		}
		d.Servers = append(d.Servers, p)
	}
	for j, sb := range b {
		if !used[j] {
			d.OnlyAfter = append(d.OnlyAfter, sb.Names)
			d.Equal = false
		}
	}
	return d
}

// WriteText writes each pair's difference under a line naming it, then
// the servers of one file only, through sc (nil: the user's key; see
// [Scrubber]).
func (d *ServersDifference) WriteText(w io.Writer, sc *Scrubber) error {
	sc = sc.or()
	var b bytes.Buffer
	for _, p := range d.Servers {
		name := strings.Join(p.Before, " = ")
		if !slices.Equal(p.Before, p.After) {
			name += " ↔ " + strings.Join(p.After, " = ")
		}
		fmt.Fprintf(&b, "== server %s\n", sanitize.Line(name))
		if p.Error != "" {
			fmt.Fprintf(&b, "not compared: %s\n\n", sanitize.Line(p.Error))
			continue
		}
		if err := p.Difference.WriteText(&b, sc); err != nil {
			return err
		}
		b.WriteString("\n")
	}
	for _, n := range d.OnlyBefore {
		fmt.Fprintf(&b, "- server only before: %s\n", sanitize.Line(strings.Join(n, " = ")))
	}
	for _, n := range d.OnlyAfter {
		fmt.Fprintf(&b, "+ server only after: %s\n", sanitize.Line(strings.Join(n, " = ")))
	}
	return sc.write(w, b.String())
}
