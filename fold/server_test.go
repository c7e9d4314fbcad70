package fold_test

import (
	"testing"
	"time"

	"mcpwitness/fold"
	"mcpwitness/record"
)

// The announcement of a server of several is a row saying which server:
// its names, its target as recorded (redacted) and its config hash.
func TestServerEventRow(t *testing.T) {
	st := fold.New(nil)
	id := record.Identity{Hash: "2e5e331e191ca4d2d917294b7e9e0e47d14350aa92ba2d8a9be75bbf8e00362a"}
	st.Apply(record.Event{T: time.Unix(1, 0), Kind: record.KindServer, Source: []string{"demo", "demo-copy"},
		Target: &record.TargetInfo{Transport: "stdio", Command: []string{"mcpwitness", "demo-server"}, Config: &id}})
	rows := st.Rows()
	if rows.Total() != 1 {
		t.Fatalf("%d rows", rows.Total())
	}
	r := rows.Abs(0)
	if want := "demo = demo-copy · stdio mcpwitness demo-server · config " + id.Short(); r.Text != want || r.Method != "server" {
		t.Errorf("row %q %q, want %q", r.Method, r.Text, want)
	}
}
