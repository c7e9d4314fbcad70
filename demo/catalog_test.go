package demo

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestCompletions(t *testing.T) {
	ctx := context.Background()
	cs, _ := connect(t, nil, nil, legacy)
	for _, tc := range []struct {
		name    string
		ref     *mcp.CompleteReference
		arg     mcp.CompleteParamsArgument
		context map[string]string
		want    []string
	}{
		{"prompt argument", &mcp.CompleteReference{Type: "ref/prompt", Name: "code_review"},
			mcp.CompleteParamsArgument{Name: "language", Value: "ja"}, nil, []string{"JavaScript", "Java"}},
		{"template variable", &mcp.CompleteReference{Type: "ref/resource", URI: "demo://weather/{city}"},
			mcp.CompleteParamsArgument{Name: "city", Value: "os"}, nil, []string{"osaka", "oslo"}},
		{"within the country chosen", &mcp.CompleteReference{Type: "ref/resource", URI: "demo://cities/{country}/{city}"},
			mcp.CompleteParamsArgument{Name: "city", Value: ""}, map[string]string{"country": "japan"}, []string{"kyoto", "osaka", "tokyo"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &mcp.CompleteParams{Ref: tc.ref, Argument: tc.arg}
			if tc.context != nil {
				p.Context = &mcp.CompleteContext{Arguments: tc.context}
			}
			res, err := cs.Complete(ctx, p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Completion.Values, tc.want) {
				t.Errorf("values %v, want %v", res.Completion.Values, tc.want)
			}
		})
	}
	res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: NumbersTemplate},
		Argument: mcp.CompleteParamsArgument{Name: "n"}})
	if err != nil || len(res.Completion.Values) <= 100 {
		t.Errorf("numbers completion: %v, %v; want more than 100 values (the broken case)", res, err)
	}
}

func TestClockSubscriptionDeliversUpdates(t *testing.T) {
	ctx := context.Background()
	updated := make(chan string, 10)
	s := New(nil)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	c := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, &mcp.ClientOptions{
		ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
			updated <- req.Params.URI
		},
	})
	cs, err := c.Connect(ctx, ct, legacy)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	if !cs.InitializeResult().Capabilities.Resources.Subscribe {
		t.Fatal("the demo does not declare resources.subscribe")
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: ClockURI}); err != nil {
		t.Fatal(err)
	}
	select {
	case uri := <-updated:
		if uri != ClockURI {
			t.Errorf("updated %s, want %s", uri, ClockURI)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no notifications/resources/updated within 10s of subscribing")
	}
	if err := cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: ClockURI}); err != nil {
		t.Fatal(err)
	}
	// The notepad changes when a note is written.
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: NotepadURI}); err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "note_add", Arguments: map[string]any{"text": "hello"}}); err != nil {
		t.Fatal(err)
	}
	for got := ""; got != NotepadURI; {
		select {
		case got = <-updated:
		case <-time.After(10 * time.Second):
			t.Fatal("no notifications/resources/updated for the notepad after note_add")
		}
	}
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "demo://nothing"}); err == nil {
		t.Error("subscribing to an unknown resource succeeded")
	}
}
