package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"mcpwitness/paging"
	"mcpwitness/record"
	"mcpwitness/report"
	"mcpwitness/session"
)

// recordedServer is one server of a session of several: its names, the
// server, and its command, which its config identity is made of.
type recordedServer struct {
	names   []string
	srv     *mcp.Server
	command string
}

// recordServers records a session of several servers as the UI over
// several does: each server's log forwarded to one shared log, tagged with
// its names after a server event announcing it; every server walks its
// tools.
func recordServers(t *testing.T, servers []recordedServer) *record.File {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "servers.jsonl")
	out, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	shared := record.NewLog(nil)
	rec, err := record.NewRecorder(out, record.NewHeader("mcpwitness test", session.Target{Name: servers[0].names[0]}.Describe()), nil)
	if err != nil {
		t.Fatal(err)
	}
	shared.AddSink(rec.Write)
	for _, s := range servers {
		st, ct := mcp.NewInMemoryTransports()
		ss, err := s.srv.Connect(ctx, st, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer ss.Close()
		log := record.NewLog(nil)
		log.AddSink(record.Forward(shared, s.names))
		id := session.Target{Command: []string{s.command}}.Identify(record.IdentityOptions{ClientName: "mcpwitness"})
		info := session.Target{Name: s.names[0], Identity: &id}.Describe()
		log.Append(record.Event{Kind: record.KindServer, Target: &info})
		sess, err := session.Dial(ctx, session.Target{Transport: ct, Name: s.names[0]}, &session.Options{Log: log, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if _, res := sess.Walk(ctx, paging.Tools()); res.Incomplete != paging.Complete {
			t.Fatal(res.Err)
		}
		sess.Close()
		log.Close()
	}
	shared.Close()
	if err := out.Close(); err != nil || rec.Err() != nil {
		t.Fatal(err, rec.Err())
	}
	f, err := record.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func TestReportOfSeveralServers(t *testing.T) {
	f := recordServers(t, []recordedServer{
		{[]string{"alpha", "alpha-copy"}, versioned(1), "alpha-srv"},
		{[]string{"beta"}, versioned(2), "beta-srv"},
	})
	servers, err := report.SplitServers(f)
	if err != nil || len(servers) != 2 {
		t.Fatalf("servers %v, %v", servers, err)
	}
	var b bytes.Buffer
	if err := report.MarkdownServers(&b, f.Name(), servers, &report.MarkdownOptions{Scrubber: testScrubber(t)}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"# mcpwitness session: 2 servers", "| alpha = alpha-copy | `", "| beta | `",
		"# Server alpha = alpha-copy", "## mcpwitness session: shop 1.0.0", "## mcpwitness session: shop 2.0.0", "### Session", "| Config hash | `"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

func TestDiffOfSeveralServers(t *testing.T) {
	before := recordServers(t, []recordedServer{
		{[]string{"alpha"}, versioned(1), "alpha-srv"},
		{[]string{"beta"}, versioned(1), "beta-srv"},
		{[]string{"gone"}, versioned(1), "gone-srv"},
	})
	after := recordServers(t, []recordedServer{
		{[]string{"alpha", "alpha-copy"}, versioned(1), "alpha-srv"},
		{[]string{"beta"}, versioned(2), "beta-srv-2"},
		{[]string{"new"}, versioned(1), "new-srv"},
	})
	a, _ := report.SplitServers(before)
	b, _ := report.SplitServers(after)
	d := report.CompareServers(a, b)
	if d.Equal || len(d.Servers) != 2 || len(d.OnlyBefore) != 1 || len(d.OnlyAfter) != 1 {
		t.Fatalf("difference %+v", d)
	}
	alpha, beta := d.Servers[0].Difference, d.Servers[1].Difference
	if alpha == nil || !alpha.Equal || alpha.Config == nil || !alpha.Config.Same {
		t.Errorf("alpha: %+v", alpha)
	}
	if beta == nil || beta.Equal || beta.Config == nil || beta.Config.Same || strings.Join(beta.Config.Parts, ",") != "command" {
		t.Errorf("beta: %+v", beta)
	}
	var text bytes.Buffer
	if err := d.WriteText(&text, testScrubber(t)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"== server alpha ↔ alpha = alpha-copy", "same configuration", "== server beta", "configuration differs", ": command", "- server only before: gone", "+ server only after: new"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, text.String())
		}
	}
	if _, err := json.Marshal(d); err != nil {
		t.Error(err)
	}
}
