package demo

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestHTTP(t *testing.T) {
	url := startHTTP(t, nil)
	ev := newEvents()
	cs, bt := connectHTTP(t, url, ev)
	if v := cs.InitializeResult().ProtocolVersion; v != "2025-11-25" {
		t.Errorf("negotiated %s over stateful Streamable HTTP, want 2025-11-25", v)
	}
	pages := walk(t, cs)
	if len(flatten(pages)) < 40 {
		t.Fatalf("got %d tools over HTTP", len(flatten(pages)))
	}
	checkPages(t, pages, 10, len(flatten(pages)))
	if !strings.Contains(bt.String(), `"execution":{"taskSupport":"required"}`) {
		t.Errorf(`no answer holds "execution":{"taskSupport":"required"}`)
	}
	if res := call(t, cs, "add", map[string]any{"a": 40, "b": 2}); structured(t, res)["sum"] != 42.0 {
		t.Errorf("add: %v", res.StructuredContent)
	}
	if res := call(t, cs, "weather", map[string]any{"city": "Porto"}); structured(t, res)["conditions"] == "" {
		t.Errorf("weather: %v", res.StructuredContent)
	}
	if res := call(t, cs, "forecast_broken", map[string]any{"city": "Porto"}); structured(t, res)["humidity"] != 140.0 {
		t.Errorf("forecast_broken: %v", res.StructuredContent)
	}
	if res := call(t, cs, "fail_always", nil); !res.IsError {
		t.Errorf("fail_always: %+v", res)
	}
	slowCountProgress(t, cs, ev)
	toggle(t, cs, ev)
	call(t, cs, "log_burst", nil)
	for range 8 {
		wait(t, ev.logged, "log message")
	}
	cancelSlowCount(t, cs, ev)
}

func TestServeHTTP(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	urls := make(chan string, 1)
	served := make(chan error, 1)
	go func() {
		served <- ServeHTTP(ctx, "127.0.0.1:0", &Options{PageSize: 7}, func(url string) { urls <- url })
	}()
	var url string
	select {
	case url = <-urls:
	case err := <-served:
		t.Fatalf("ServeHTTP returned before it was ready: %v", err)
	case <-time.After(time.Minute):
		t.Fatal("ServeHTTP never reported its URL")
	}
	if !regexp.MustCompile(`^http://127\.0\.0\.1:[1-9][0-9]*/mcp$`).MatchString(url) {
		t.Fatalf("URL %q, want http://127.0.0.1:PORT/mcp", url)
	}

	cs, _ := connectHTTP(t, url, nil)
	pages := walk(t, cs)
	checkPages(t, pages, 7, len(flatten(pages)))
	cs.Close()

	resp, err := http.Get(strings.TrimSuffix(url, "/mcp") + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || !strings.Contains(string(body), "/mcp") {
		t.Errorf("GET / = %d %q, want 404 naming /mcp", resp.StatusCode, body)
	}

	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("ServeHTTP after cancel: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("ServeHTTP did not return after its context was cancelled")
	}
}

func TestServeHTTPBadAddress(t *testing.T) {
	err := ServeHTTP(context.Background(), "127.0.0.1:-1", nil, func(string) { t.Error("ready called") })
	if err == nil {
		t.Fatal("ServeHTTP on a bad address returned nil")
	}
}

// pipeTransports returns a client and a server transport joined by two
// pipes, like a child process's stdin and stdout.
func pipeTransports() (client, server mcp.Transport) {
	toServer, fromClient := io.Pipe()
	toClient, fromServer := io.Pipe()
	return &mcp.IOTransport{Reader: toClient, Writer: fromClient},
		&mcp.IOTransport{Reader: toServer, Writer: fromServer}
}

func TestServeStdio(t *testing.T) {
	t.Run("client goes away", func(t *testing.T) {
		ct, st := pipeTransports()
		served := make(chan error, 1)
		go func() { served <- serve(context.Background(), New(nil), st) }()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(flatten(walk(t, cs))) < 40 {
			t.Error("too few tools over stdio")
		}
		cs.Close()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("serve after the client left: %v", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("serve did not return after the client left")
		}
	})
	t.Run("context done", func(t *testing.T) {
		ct, st := pipeTransports()
		ctx, cancel := context.WithCancel(context.Background())
		served := make(chan error, 1)
		go func() { served <- serve(ctx, New(nil), st) }()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, legacy)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		cancel()
		select {
		case err := <-served:
			if err != nil {
				t.Errorf("serve after cancel: %v", err)
			}
		case <-time.After(time.Minute):
			t.Fatal("serve did not return after its context was cancelled")
		}
	})
}
