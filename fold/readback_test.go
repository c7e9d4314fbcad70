package fold_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"mcpwitness/fold"
	"mcpwitness/record"
)

// TestReadBackGivesWhatTheLeanFoldLeft folds the fixture lean, then reads
// each call's arguments and answer back from the file: they are the ones a
// full fold keeps.
func TestReadBackGivesWhatTheLeanFoldLeft(t *testing.T) {
	full := foldFile(t, fixture)
	f, err := record.OpenFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lean := fold.New(&fold.Options{Lean: true, KeepAll: true})
	i := 0
	for ev, err := range f.Events() {
		if err != nil {
			t.Fatal(err)
		}
		i++
		lean.ApplyAt(ev, i)
	}
	if len(lean.Calls()) == 0 {
		t.Fatal("the fixture has no calls")
	}
	answers := 0
	for _, c := range lean.Calls() {
		if c.ResultSrc > 0 {
			answers++
		}
		if c.ArgsSrc == 0 || len(c.Args) > 0 {
			t.Fatalf("call %d: lean fold kept its arguments (src %d): nothing to read back", c.ID, c.ArgsSrc)
		}
		got, err := fold.ReadBack(c, f.Event)
		if err != nil {
			t.Fatalf("call %d: %v", c.ID, err)
		}
		want := full.Call(c.ID)
		if d := cmp.Diff(string(want.Args), string(got.Args)); d != "" {
			t.Errorf("call %d arguments (-full +read back):\n%s", c.ID, d)
		}
		if d := cmp.Diff(string(want.Result)+string(want.RPCError), string(got.Result)+string(got.RPCError)); d != "" {
			t.Errorf("call %d answer (-full +read back):\n%s", c.ID, d)
		}
		if c.Args != nil || c.Result != nil {
			t.Errorf("call %d: ReadBack changed the fold's own record", c.ID)
		}
	}
	if answers == 0 {
		t.Error("no call of the fixture left its answer in the file: the answer was not read back")
	}
}

// TestReadBackSaysWhatItCouldNotRead gives ReadBack a file that fails at
// the answer's event and has no call at the arguments' event.
func TestReadBackSaysWhatItCouldNotRead(t *testing.T) {
	c := &fold.Call{ArgsSrc: 3, ResultSrc: 7}
	load := func(i int) (record.Event, error) {
		if i == 6 {
			return record.Event{}, errors.New("line cut short")
		}
		return record.Event{Kind: record.KindStderr}, nil
	}
	_, err := fold.ReadBack(c, load)
	want := "could not read the arguments (event 3: not a call event) and the answer (event 7: line cut short) from the session file"
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v, want %q", err, want)
	}
	ok := func(i int) (record.Event, error) {
		return record.Event{Kind: record.KindCall, Call: &record.CallInfo{Args: []byte(`{"a":1}`)}}, nil
	}
	got, err := fold.ReadBack(&fold.Call{ArgsSrc: 1}, ok)
	if err != nil || !strings.Contains(string(got.Args), `"a":1`) {
		t.Fatalf("read back %s, %v", got.Args, err)
	}
}
