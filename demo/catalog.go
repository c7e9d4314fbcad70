package demo

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cityCountries returns each city of the demo's catalogue with its
// country. The catalogue is long enough that resources/list takes several
// pages.
func cityCountries() [][2]string {
	return [][2]string{
		{"Amsterdam", "Netherlands"}, {"Athens", "Greece"}, {"Berlin", "Germany"}, {"Bogota", "Colombia"},
		{"Cairo", "Egypt"}, {"Dublin", "Ireland"}, {"Hamburg", "Germany"}, {"Helsinki", "Finland"},
		{"Kyoto", "Japan"}, {"Lagos", "Nigeria"}, {"Lima", "Peru"}, {"Lisbon", "Portugal"},
		{"Madrid", "Spain"}, {"Montreal", "Canada"}, {"Nairobi", "Kenya"}, {"Osaka", "Japan"},
		{"Oslo", "Norway"}, {"Porto", "Portugal"}, {"Quito", "Ecuador"}, {"Seville", "Spain"},
		{"Tokyo", "Japan"}, {"Toronto", "Canada"}, {"Utrecht", "Netherlands"}, {"Zurich", "Switzerland"},
	}
}

// URIs of the resources that show a verdict or a subscription.
const (
	// BrokenResourceURI answers resources/read against the rules: an item
	// for another uri, holding both text and blob.
	BrokenResourceURI = "demo://broken/contents"
	// ClockURI is a subscribable resource that changes every second.
	ClockURI = "demo://clock"
	// NotepadURI is a subscribable resource that changes with note_add and
	// notes_clear.
	NotepadURI = "demo://notepad"
	// NumbersTemplate is a template whose completion answers more values
	// than the specification allows.
	NumbersTemplate = "demo://numbers/{n}"
)

// clockPeriod is how often demo://clock changes while someone is subscribed.
const clockPeriod = time.Second

// addCatalog adds the city catalogue (several pages of resources), the
// broken and subscribable resources and the templates whose variables
// complete.
func addCatalog(s *mcp.Server, st *state) {
	for _, cc := range cityCountries() {
		city, country := cc[0], cc[1]
		body := fmt.Sprintf("%s is a city in %s.\n", city, country)
		s.AddResource(&mcp.Resource{
			URI:         "demo://cities/" + strings.ToLower(country) + "/" + strings.ToLower(city),
			Name:        "city-" + strings.ToLower(city),
			Title:       city,
			Description: "A line about " + city + ".",
			MIMEType:    "text/plain",
			Size:        int64(len(body)),
		}, staticResource(body))
	}
	s.AddResource(&mcp.Resource{
		URI:         BrokenResourceURI,
		Name:        "broken-contents",
		Description: "Answers resources/read against the rules (another uri, both text and blob): a failing verdict.",
		MIMEType:    "text/plain",
	}, readBroken)
	s.AddResource(&mcp.Resource{
		URI:         ClockURI,
		Name:        "clock",
		Title:       "Server clock",
		Description: "The server's time; subscribe to it and it changes every second.",
		MIMEType:    "text/plain",
	}, st.readClock)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: "demo://cities/{country}/{city}",
		Name:        "city",
		Title:       "City by country",
		Description: "A line about a city of the catalogue; country and city complete, city within the country.",
		MIMEType:    "text/plain",
	}, readCity)
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		URITemplate: NumbersTemplate,
		Name:        "number",
		Description: "A number, spelt out. Its completion answers 150 values, more than the 100 allowed: a failing verdict.",
		MIMEType:    "text/plain",
	}, readNumber)
}

// readBroken answers with contents that break the rules on purpose.
func readBroken(_ context.Context, _ *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: "demo://somewhere-else", MIMEType: "text/plain", Text: "text and", Blob: []byte("a blob at once")},
	}}, nil
}

// readCity answers a read of demo://cities/{country}/{city}.
func readCity(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	rest := strings.TrimPrefix(req.Params.URI, "demo://cities/")
	country, city, _ := strings.Cut(rest, "/")
	for _, cc := range cityCountries() {
		if strings.EqualFold(cc[0], city) && strings.EqualFold(cc[1], country) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
				{URI: req.Params.URI, MIMEType: "text/plain", Text: fmt.Sprintf("%s is a city in %s.\n", cc[0], cc[1])}}}, nil
		}
	}
	return nil, mcp.ResourceNotFoundError(req.Params.URI)
}

// readNumber answers a read of demo://numbers/{n}.
func readNumber(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	n, err := strconv.Atoi(strings.TrimPrefix(req.Params.URI, "demo://numbers/"))
	if err != nil {
		return nil, mcp.ResourceNotFoundError(req.Params.URI)
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{
		{URI: req.Params.URI, MIMEType: "text/plain", Text: fmt.Sprintf("%d is %s.\n", n, parity(n))}}}, nil
}

func parity(n int) string {
	if n%2 == 0 {
		return "even"
	}
	return "odd"
}

// readClock answers a read of demo://clock: the time and how often it has
// changed for subscribers.
func (st *state) readClock(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	st.mu.Lock()
	ticks := st.clock.ticks
	st.mu.Unlock()
	body := fmt.Sprintf("%s\nchanged %d times while subscribed\n", time.Now().UTC().Format(time.RFC3339), ticks)
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: body}}}, nil
}

// clock is the ticking behind demo://clock: it runs while anyone is
// subscribed.
type clock struct {
	subs  map[*mcp.ServerSession]bool
	stop  chan struct{}
	ticks int
}

// subscribe accepts subscriptions to demo://clock and demo://notepad; the
// clock starts ticking with its first subscriber.
func (st *state) subscribe(srv func() *mcp.Server) func(context.Context, *mcp.SubscribeRequest) error {
	return func(_ context.Context, req *mcp.SubscribeRequest) error {
		switch req.Params.URI {
		case ClockURI:
		case NotepadURI:
			return nil
		default:
			return mcp.ResourceNotFoundError(req.Params.URI)
		}
		st.mu.Lock()
		defer st.mu.Unlock()
		if st.clock.subs == nil {
			st.clock.subs = map[*mcp.ServerSession]bool{}
		}
		if len(st.clock.subs) == 0 {
			st.clock.stop = make(chan struct{})
			go st.tick(srv(), st.clock.stop)
		}
		if ss := req.Session; ss != nil && !st.clock.subs[ss] {
			st.clock.subs[ss] = true
			go func() {
				_ = ss.Wait()
				st.dropClock(ss)
			}()
		}
		return nil
	}
}

// unsubscribe ends a session's subscription; the clock stops with the last.
func (st *state) unsubscribe(_ context.Context, req *mcp.UnsubscribeRequest) error {
	if req.Params.URI == ClockURI {
		st.dropClock(req.Session)
	}
	return nil
}

func (st *state) dropClock(ss *mcp.ServerSession) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.clock.subs[ss] {
		return
	}
	delete(st.clock.subs, ss)
	if len(st.clock.subs) == 0 {
		close(st.clock.stop)
	}
}

// tick tells subscribers demo://clock changed, every clockPeriod until stop.
func (st *state) tick(srv *mcp.Server, stop <-chan struct{}) {
	t := time.NewTicker(clockPeriod)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			st.mu.Lock()
			st.clock.ticks++
			st.mu.Unlock()
			_ = srv.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: ClockURI})
		}
	}
}

// notepadChanged tells subscribers of demo://notepad that it changed.
func notepadChanged(s *mcp.Server) {
	_ = s.ResourceUpdated(context.Background(), &mcp.ResourceUpdatedNotificationParams{URI: NotepadURI})
}

// promptCompletions returns what the prompt argument "prompt/argument"
// offers.
func promptCompletions(key string) []string {
	switch key {
	case "code_review/language":
		return []string{"Go", "Rust", "Python", "TypeScript", "JavaScript", "Java", "C", "C++", "Haskell", "Ruby"}
	case "code_review/focus":
		return []string{"correctness", "performance", "readability", "security"}
	case "summarize/style":
		return []string{"bullets", "paragraph"}
	}
	return nil
}

// complete answers completion/complete for the demo's prompts and
// templates; cities complete within the country already chosen. demo://numbers/{n} answers 150 values on purpose.
func complete(_ context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
	ref, arg := req.Params.Ref, req.Params.Argument
	var all []string
	switch {
	case ref.Type == "ref/prompt":
		all = promptCompletions(ref.Name + "/" + arg.Name)
	case ref.URI == NumbersTemplate:
		for i := range 150 {
			all = append(all, strconv.Itoa(i))
		}
		return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: all, Total: len(all)}}, nil
	case ref.URI == "demo://weather/{city}" || (ref.URI == "demo://cities/{country}/{city}" && arg.Name == "city"):
		var country string
		if req.Params.Context != nil {
			country = req.Params.Context.Arguments["country"]
		}
		for _, cc := range cityCountries() {
			if country == "" || strings.EqualFold(cc[1], country) {
				all = append(all, strings.ToLower(cc[0]))
			}
		}
	case ref.URI == "demo://cities/{country}/{city}" && arg.Name == "country":
		for _, cc := range cityCountries() {
			if c := strings.ToLower(cc[1]); !slices.Contains(all, c) {
				all = append(all, c)
			}
		}
	}
	var values []string
	for _, v := range all {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(arg.Value)) {
			values = append(values, v)
		}
	}
	res := &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: len(values)}}
	if res.Completion.Values == nil {
		res.Completion.Values = []string{}
	}
	return res, nil
}
