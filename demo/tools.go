package demo

//lint:file-ignore SA1019 logging is deprecated as of protocol 2026-07-28 (SEP-2577), but still in use, and showing it is part of the demo.

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// text returns a successful result holding one text block.
func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// toolError returns a result with isError set, holding one text block.
func toolError(format string, args ...any) *mcp.CallToolResult {
	res := text(format, args...)
	res.IsError = true
	return res
}

// arguments decodes the raw arguments of a call made to a tool added with
// [mcp.Server.AddTool], which the SDK neither validates nor decodes.
func arguments[T any](req *mcp.CallToolRequest) (T, error) {
	var v T
	if len(req.Params.Arguments) == 0 {
		return v, nil
	}
	err := json.Unmarshal(req.Params.Arguments, &v)
	return v, err
}

// addShowcaseTools adds the tools that show the inspector's checks and
// notifications working against well-behaved answers.
func addShowcaseTools(s *mcp.Server, st *state) {
	addAdd(s)
	addWeather(s)
	addSlowCount(s)
	addTaskTools(s)
	addToggleTools(s, st)
	addLogBurst(s)
	addFailAlways(s)
}

type addIn struct {
	A float64 `json:"a" jsonschema:"the first number"`
	B float64 `json:"b" jsonschema:"the second number"`
}

type addOut struct {
	Sum float64 `json:"sum" jsonschema:"a + b"`
}

func addAdd(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "add",
		Description: "Add two numbers. Answers with text and with structuredContent {\"sum\": n} that matches its output schema.",
	}, func(_ context.Context, _ *mcp.CallToolRequest, in addIn) (*mcp.CallToolResult, addOut, error) {
		sum := in.A + in.B
		return text("%g + %g = %g", in.A, in.B, sum), addOut{Sum: sum}, nil
	})
}

type weatherIn struct {
	City  string `json:"city"`
	Units string `json:"units"`
}

type weatherOut struct {
	City        string  `json:"city"`
	Temperature float64 `json:"temperature"`
	Units       string  `json:"units"`
	Conditions  string  `json:"conditions"`
	Humidity    int     `json:"humidity"`
}

const weatherInput = `{
  "type": "object",
  "properties": {
    "city": {"type": "string", "description": "City name, e.g. \"Lisbon\"", "minLength": 1},
    "units": {"type": "string", "enum": ["celsius", "fahrenheit"], "default": "celsius", "description": "Temperature units"}
  },
  "required": ["city"]
}`

const weatherOutput = `{
  "type": "object",
  "properties": {
    "city": {"type": "string"},
    "temperature": {"type": "number", "description": "Air temperature in the requested units"},
    "units": {"type": "string", "enum": ["celsius", "fahrenheit"]},
    "conditions": {"type": "string", "description": "Sky conditions in a few words"},
    "humidity": {"type": "integer", "minimum": 0, "maximum": 100, "description": "Relative humidity, percent"}
  },
  "required": ["city", "temperature", "conditions", "humidity"]
}`

// fakeWeather returns plausible, stable weather for a city: the same city
// always gets the same answer.
func fakeWeather(city string) (celsius float64, cond string, humidity int) {
	conditions := [...]string{"clear skies", "partly cloudy", "overcast", "light rain", "showers", "fog", "windy", "thunderstorms", "light snow"}
	h := fnv.New32a()
	h.Write([]byte(strings.ToLower(strings.TrimSpace(city))))
	n := h.Sum32()
	celsius = float64(int(n%380))/10 - 5 // -5.0 … 32.9
	cond = conditions[(n/380)%uint32(len(conditions))]
	humidity = 30 + int((n/7)%66)
	return celsius, cond, humidity
}

func addWeather(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:         "weather",
		Title:        "Current Weather",
		Description:  "Current weather for a city (simulated, stable per city). Answers with structuredContent that matches its output schema.",
		InputSchema:  json.RawMessage(weatherInput),
		OutputSchema: json.RawMessage(weatherOutput),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true},
	}, func(_ context.Context, _ *mcp.CallToolRequest, in weatherIn) (*mcp.CallToolResult, weatherOut, error) {
		c, cond, hum := fakeWeather(in.City)
		out := weatherOut{City: in.City, Temperature: c, Units: "celsius", Conditions: cond, Humidity: hum}
		sym := "°C"
		if in.Units == "fahrenheit" {
			out.Temperature, out.Units, sym = math.Round((c*9/5+32)*10)/10, "fahrenheit", "°F"
		}
		return text("%s: %.1f%s, %s, humidity %d%%", in.City, out.Temperature, sym, cond, hum), out, nil
	})
}

type slowCountIn struct {
	Steps   int `json:"steps"`
	DelayMs int `json:"delay_ms"`
}

const slowCountInput = `{
  "type": "object",
  "properties": {
    "steps": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 5, "description": "How many steps to count"},
    "delay_ms": {"type": "integer", "minimum": 0, "maximum": 60000, "default": 300, "description": "Pause before each step, in milliseconds"}
  }
}`

func addSlowCount(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "slow_count",
		Title:       "Slow Count",
		Description: "Count slowly, one step per delay_ms, sending notifications/progress for each step when the call carries a progress token. Stops as soon as the call is cancelled.",
		InputSchema: json.RawMessage(slowCountInput),
	}, func(ctx context.Context, req *mcp.CallToolRequest, in slowCountIn) (*mcp.CallToolResult, any, error) {
		token := req.Params.GetProgressToken()
		delay := time.Duration(in.DelayMs) * time.Millisecond
		timer := time.NewTimer(delay)
		defer timer.Stop()
		for i := 1; i <= in.Steps; i++ {
			if i > 1 {
				timer.Reset(delay)
			}
			select {
			case <-ctx.Done():
				// The call is gone, so say so outside it, where a client can
				// still see it (on HTTP: the standalone stream).
				_ = req.Session.Log(context.Background(), &mcp.LoggingMessageParams{
					Level:  "notice",
					Logger: "slow_count",
					Data:   fmt.Sprintf("slow_count cancelled after %d of %d steps", i-1, in.Steps),
				})
				return nil, nil, ctx.Err()
			case <-timer.C:
			}
			if token != nil {
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token,
					Progress:      float64(i),
					Total:         float64(in.Steps),
					Message:       fmt.Sprintf("step %d of %d", i, in.Steps),
				})
			}
		}
		note := ""
		if token == nil {
			note = " (no progress token on the call, so no progress notifications were sent)"
		}
		return text("Counted to %d, %d ms per step%s.", in.Steps, in.DelayMs, note), nil, nil
	})
}

// addTaskTools adds the tools whose listed definitions carry
// "execution.taskSupport" (see [withExecution]).
func addTaskTools(s *mcp.Server) {
	s.AddTool(&mcp.Tool{
		Name:  "render_video",
		Title: "Render Video",
		Description: "Render a storyboard to video. Long-running: requires task-based execution (execution.taskSupport \"required\"), " +
			"so a client must not call it with a plain tools/call. Called plainly anyway, it answers with an error result.",
		InputSchema: json.RawMessage(`{
  "type": "object",
  "properties": {
    "storyboard": {"type": "string", "description": "Scenes, one per line"},
    "resolution": {"type": "string", "enum": ["720p", "1080p", "2160p"], "default": "1080p"},
    "fps": {"type": "integer", "enum": [24, 30, 60], "default": 30}
  },
  "required": ["storyboard"]
}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return toolError("render_video requires task-based execution (execution.taskSupport is \"required\"): " +
			"send tools/call as a task; this plain call was not run."), nil
	})

	type transcribeIn struct {
		URL      string `json:"url" jsonschema:"where the audio file is, e.g. https://example.com/talk.mp3"`
		Language string `json:"language,omitempty" jsonschema:"spoken language as a BCP 47 tag; detected when absent"`
	}
	mcp.AddTool(s, &mcp.Tool{
		Name: "transcribe_audio",
		Description: "Transcribe an audio file (simulated). Task-based execution is optional " +
			"(execution.taskSupport \"optional\"): a plain tools/call works too.",
	}, func(_ context.Context, _ *mcp.CallToolRequest, in transcribeIn) (*mcp.CallToolResult, any, error) {
		lang := in.Language
		if lang == "" {
			lang = "en (detected)"
		}
		return text("Transcript of %s [%s]:\n[00:00] Welcome, everyone, and thanks for joining.\n"+
			"[00:04] Today we look at how clients page through tool lists.\n[00:09] Let's begin.", in.URL, lang), nil, nil
	})
}

// extraTools are the tools toggle_tools adds and removes.
func extraTools() []string { return []string{"extra_alpha", "extra_beta", "extra_gamma"} }

type wordsIn struct {
	Words []string `json:"words" jsonschema:"the words to sort"`
}

type betaIn struct {
	A float64 `json:"a" jsonschema:"first shape parameter, > 0"`
	B float64 `json:"b" jsonschema:"second shape parameter, > 0"`
}

type gammaIn struct {
	X float64 `json:"x" jsonschema:"the argument"`
}

func addExtraTools(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name:        "extra_alpha",
		Description: "Sort words alphabetically. Added by toggle_tools; toggle again to remove it.",
	}, func(_ context.Context, _ *mcp.CallToolRequest, in wordsIn) (*mcp.CallToolResult, any, error) {
		w := slices.Clone(in.Words)
		slices.SortFunc(w, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
		return text("%s", strings.Join(w, " ")), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "extra_beta",
		Description: "The beta function B(a, b). Added by toggle_tools; toggle again to remove it.",
	}, func(_ context.Context, _ *mcp.CallToolRequest, in betaIn) (*mcp.CallToolResult, any, error) {
		if in.A <= 0 || in.B <= 0 {
			return nil, nil, fmt.Errorf("a and b must both be > 0 (got a=%g, b=%g)", in.A, in.B)
		}
		la, _ := math.Lgamma(in.A)
		lb, _ := math.Lgamma(in.B)
		lab, _ := math.Lgamma(in.A + in.B)
		return text("B(%g, %g) = %.10g", in.A, in.B, math.Exp(la+lb-lab)), nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "extra_gamma",
		Description: "The gamma function Γ(x). Added by toggle_tools; toggle again to remove it.",
	}, func(_ context.Context, _ *mcp.CallToolRequest, in gammaIn) (*mcp.CallToolResult, any, error) {
		return text("Γ(%g) = %.10g", in.X, math.Gamma(in.X)), nil, nil
	})
}

func addToggleTools(s *mcp.Server, st *state) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "toggle_tools",
		Description: "Add the tools extra_alpha, extra_beta and extra_gamma, or remove them if present. " +
			"Either way the server sends notifications/tools/list_changed and the tool list changes by three.",
	}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		st.mu.Lock()
		defer st.mu.Unlock()
		names := strings.Join(extraTools(), ", ")
		if st.extras {
			s.RemoveTools(extraTools()...)
			st.extras = false
			return text("Removed %s. The tool list shrank by 3; notifications/tools/list_changed is on its way.", names), nil, nil
		}
		addExtraTools(s)
		st.extras = true
		return text("Added %s. The tool list grew by 3; notifications/tools/list_changed is on its way.", names), nil, nil
	})
}

// burst is what log_burst sends, mildest first.
func burst() []mcp.LoggingMessageParams {
	return []mcp.LoggingMessageParams{
		{Level: "debug", Data: "cache warmed: 128 entries in 3.2 ms"},
		{Level: "info", Data: map[string]any{"event": "connected", "upstream": "api.example.com", "latencyMs": 41}},
		{Level: "notice", Data: "configuration reloaded from /etc/demo/config.json"},
		{Level: "warning", Data: map[string]any{"event": "disk-usage", "mount": "/var", "usedPercent": 91}},
		{Level: "error", Data: "request 7f3a failed: upstream returned 503; retrying (attempt 2 of 5)"},
		{Level: "critical", Data: map[string]any{"event": "replica-lag", "replica": "db-2", "lagSeconds": 94}},
		{Level: "alert", Data: "certificate for api.example.com expires in 2 days"},
		{Level: "emergency", Data: "primary database unreachable; serving read-only"},
	}
}

func addLogBurst(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "log_burst",
		Description: "Send eight notifications/message log messages, one at each level from debug to emergency. " +
			"The session's log level (logging/setLevel) decides which of them are sent.",
	}, func(ctx context.Context, req *mcp.CallToolRequest, _ any) (*mcp.CallToolResult, any, error) {
		msgs := burst()
		for i := range msgs {
			msgs[i].Logger = "log_burst"
			if err := req.Session.Log(ctx, &msgs[i]); err != nil {
				return nil, nil, fmt.Errorf("sending the %s message: %w", msgs[i].Level, err)
			}
		}
		res := text("Sent up to %d log messages, debug to emergency; the session's log level filtered them.", len(msgs))
		if ip := req.Session.InitializeParams(); ip != nil && ip.ProtocolVersion >= "2026-07-28" {
			if _, ok := req.Params.Meta[mcp.MetaKeyLogLevel]; !ok {
				res = text("Sent no log messages: on protocol %s a request asks for them with _meta %q, and this one did not.",
					ip.ProtocolVersion, mcp.MetaKeyLogLevel)
			}
		}
		return res, nil, nil
	})
}

func addFailAlways(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "fail_always",
		Description: "Fetch the status of an upstream service. Always fails, on purpose: " +
			"answers with a tool error (isError: true), not a protocol error.",
	}, func(context.Context, *mcp.CallToolRequest, any) (*mcp.CallToolResult, any, error) {
		return toolError("upstream status service unavailable: dial tcp 203.0.113.7:443: connect: connection refused " +
			"(fail_always fails on every call)"), nil, nil
	})
}
