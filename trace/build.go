package trace

import (
	"cmp"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
)

// Session is what a trace is built from: the session's event lines
// (oldest first), the model calls of its transcript, and those of each
// subagent's own transcript by the subagent's agent_id.
type Session struct {
	Agent, ID string
	Events    []events.Event
	Calls     []ModelCall
	SubCalls  map[string][]ModelCall
	// Turns and Tools are the turns and tool calls the transcript
	// records (Codex's): the trace takes them when the log has none.
	Turns []Period
	Tools []ToolCall
}

// turn is one prompt's span and the time it covers.
type turn struct {
	span       int // index in the trace's spans
	start, end time.Time
}

// builder assembles one trace.
type builder struct {
	t     Trace
	turns []turn
}

// Build makes the session's trace: the session's invoke_agent span at
// the root; a span per turn (a prompt to the Stop that ends it); in it
// the chat span of each model call with its tokens, the execute_tool
// span of each tool call, and an invoke_agent span per subagent holding
// the subagent's own calls; compactions, API errors and notifications
// as events of the turn they fell in.
func Build(s Session) Trace {
	b := &builder{t: Trace{Agent: s.Agent, Session: s.ID, TraceID: traceID(s.Agent, s.ID)}}
	start, end := bounds(s)
	root := b.add("session", "", "invoke_agent "+s.Agent, "", start, end)
	b.rootAttrs(s)
	b.addTurns(s.Events, root, end)
	if len(b.turns) == 0 {
		b.addTranscriptTurns(s.Turns, root, end)
	}
	subs := b.addSubagents(s.Events, end)
	logged := false
	for i := range s.Events {
		logged = b.addTool(&s.Events[i], i, subs) || logged
		b.addMoment(&s.Events[i])
	}
	if !logged {
		b.addTranscriptTools(s.Tools)
	}
	for _, c := range s.Calls {
		b.addCall(c, b.parentAt(c.Start), "")
	}
	for id, calls := range s.SubCalls {
		if parent, ok := subs[id]; ok {
			for _, c := range calls {
				b.addCall(c, parent, id)
			}
		}
	}
	b.totals(s)
	b.bound()
	return b.t
}

// MaxSpans bounds a trace's spans, so that a long session (or a hostile
// transcript) gives a trace a collector takes: the root, the turns and
// the subagents come first, and the tool calls and model calls past the
// bound are dropped, their number on the root (st.trace.dropped_spans).
const MaxSpans = 4096

func (b *builder) bound() {
	if n := len(b.t.Spans); n > MaxSpans {
		b.t.Spans = b.t.Spans[:MaxSpans:MaxSpans]
		root := b.span(0)
		root.Attrs = append(root.Attrs, Int("st.trace.dropped_spans", int64(n-MaxSpans)))
	}
}

// bounds is the session's first and last moment in its lines and calls.
func bounds(s Session) (start, end time.Time) {
	see := func(t time.Time) {
		if t.IsZero() {
			return
		}
		if start.IsZero() || t.Before(start) {
			start = t
		}
		if t.After(end) {
			end = t
		}
	}
	for i := range s.Events {
		t, _ := s.Events[i].Time()
		see(t)
	}
	for _, c := range s.Calls {
		see(c.Start)
		see(c.End)
	}
	for _, p := range s.Turns {
		see(p.Start)
		see(p.End)
	}
	return start, end
}

// add appends a span and returns its index.
func (b *builder) add(key, parentID, name, kind string, start, end time.Time) int {
	if end.Before(start) {
		end = start
	}
	b.t.Spans = append(b.t.Spans, Span{ID: spanID(b.t.TraceID, key), Parent: parentID, Name: name, Kind: kind, Start: start, End: end})
	return len(b.t.Spans) - 1
}

func (b *builder) span(i int) *Span { return &b.t.Spans[i] }

func (b *builder) rootAttrs(s Session) {
	root := b.span(0)
	root.Attrs = append(root.Attrs, String("gen_ai.operation.name", "invoke_agent"), String("gen_ai.agent.name", s.Agent),
		String("gen_ai.conversation.id", s.ID))
	for i := range s.Events {
		e := &s.Events[i]
		switch {
		case e.Cwd != "" && !hasAttr(root, "st.cwd"):
			root.Attrs = append(root.Attrs, String("st.cwd", e.Cwd))
		case e.Event == "SessionEnd" && e.Type != "":
			root.Attrs = append(root.Attrs, String("st.session.end_reason", e.Type))
		}
		if e.Host != "" && !hasAttr(root, "host.name") {
			root.Attrs = append(root.Attrs, String("host.name", e.Host))
		}
	}
}

func hasAttr(s *Span, key string) bool { _, ok := s.Attr(key); return ok }

// addTurns adds a span per prompt: from UserPromptSubmit to the Stop,
// StopFailure or next prompt that ends it, else to the session's end.
func (b *builder) addTurns(evs []events.Event, root int, end time.Time) {
	open := -1
	closeAt := func(t time.Time) {
		if open >= 0 {
			b.turns[open].end = t
			b.span(b.turns[open].span).End = t
			open = -1
		}
	}
	for i := range evs {
		e := &evs[i]
		if e.AgentID != "" {
			continue // a subagent's lines belong to its span
		}
		t, ok := e.Time()
		if !ok {
			continue
		}
		switch e.Event {
		case "UserPromptSubmit":
			closeAt(t)
			n := len(b.turns) + 1
			k := b.add("turn/"+strconv.Itoa(n), b.span(root).ID, "turn "+strconv.Itoa(n), "", t, end)
			b.span(k).Attrs = append(b.span(k).Attrs, Int("st.turn", int64(n)))
			b.turns = append(b.turns, turn{span: k, start: t, end: end})
			open = len(b.turns) - 1
		case "Stop", "StopFailure", "SessionEnd":
			closeAt(t)
		}
	}
}

// parentAt is the ID of the turn span covering t, else the root's.
func (b *builder) parentAt(t time.Time) string {
	for i := len(b.turns) - 1; i >= 0; i-- {
		if tu := b.turns[i]; !t.Before(tu.start) && !t.After(tu.end) {
			return b.span(tu.span).ID
		}
	}
	return b.span(0).ID
}

// spanAt is the index of the turn span covering t, else the root's.
func (b *builder) spanAt(t time.Time) int {
	for i := len(b.turns) - 1; i >= 0; i-- {
		if tu := b.turns[i]; !t.Before(tu.start) && !t.After(tu.end) {
			return tu.span
		}
	}
	return 0
}

// addSubagents adds an invoke_agent span per subagent and returns their
// IDs by agent_id.
func (b *builder) addSubagents(evs []events.Event, end time.Time) map[string]string {
	ids := map[string]string{}
	for _, sub := range events.Subagents(evs) {
		start, stop := sub.Start, sub.End
		if start.IsZero() {
			continue // its start is not in the log: nothing to place it by
		}
		if stop.IsZero() {
			stop = end
		}
		name := "invoke_agent " + cmp.Or(sub.Type, "subagent")
		k := b.add("agent/"+sub.ID, b.parentAt(start), name, "", start, stop)
		s := b.span(k)
		s.Attrs = append(s.Attrs, String("gen_ai.operation.name", "invoke_agent"), String("gen_ai.agent.id", sub.ID),
			String("gen_ai.agent.name", cmp.Or(sub.Type, "subagent")), String("st.subagent.outcome", sub.Outcome),
			Int("st.subagent.tools", int64(sub.Tools)))
		if sub.FirstLine != "" {
			s.Attrs = append(s.Attrs, String("st.subagent.report", sub.FirstLine))
		}
		if sub.Outcome == events.SubagentFailed {
			s.Error = cmp.Or(sub.FirstLine, "failed")
		}
		ids[sub.ID] = s.ID
	}
	return ids
}

// addTranscriptTurns adds a span per turn the transcript records; one
// still running ends with the session.
func (b *builder) addTranscriptTurns(turns []Period, root int, end time.Time) {
	for _, p := range turns {
		n := len(b.turns) + 1
		k := b.add("turn/"+strconv.Itoa(n), b.span(root).ID, "turn "+strconv.Itoa(n), "", p.Start, cmp.Or(p.End, end))
		b.span(k).Attrs = append(b.span(k).Attrs, Int("st.turn", int64(n)))
		b.turns = append(b.turns, turn{span: k, start: p.Start, end: b.span(k).End})
	}
}

// addTranscriptTools adds the execute_tool span of each tool call the
// transcript records.
func (b *builder) addTranscriptTools(tools []ToolCall) {
	for i, c := range tools {
		k := b.add("tool/transcript/"+strconv.Itoa(i), b.parentAt(c.Start), "execute_tool "+c.Name, "", c.Start, c.End)
		s := b.span(k)
		s.Attrs = append(s.Attrs, String("gen_ai.operation.name", "execute_tool"), String("gen_ai.tool.name", c.Name))
		if c.Command != "" {
			s.Attrs = append(s.Attrs, String("st.tool.command", c.Command))
		}
	}
}

// addTool adds the execute_tool span of a finished tool call, and
// reports whether e was one.
func (b *builder) addTool(e *events.Event, i int, subs map[string]string) bool {
	if e.Event != "PostToolUse" && e.Event != "PostToolUseFailure" || e.Tool == "" {
		return false
	}
	end, ok := e.Time()
	if !ok {
		return false
	}
	start := end.Add(-time.Duration(e.ToolMS) * time.Millisecond)
	parent := b.parentAt(start)
	if id, ok := subs[e.AgentID]; ok {
		parent = id
	}
	k := b.add("tool/"+strconv.Itoa(i), parent, "execute_tool "+e.Tool, "", start, end)
	s := b.span(k)
	s.Attrs = append(s.Attrs, String("gen_ai.operation.name", "execute_tool"), String("gen_ai.tool.name", e.Tool))
	if e.Path != "" {
		s.Attrs = append(s.Attrs, String("st.tool.path", e.Path))
	}
	if e.Command != "" {
		s.Attrs = append(s.Attrs, String("st.tool.command", e.Command))
	}
	if e.Event == "PostToolUseFailure" {
		s.Error = cmp.Or(e.Error, "the tool failed")
		s.Attrs = append(s.Attrs, String("error.type", "tool_error"))
	}
	return true
}

// addMoment records what happened at one moment as an event of the turn
// it fell in: a compaction, an API error, a notification.
func (b *builder) addMoment(e *events.Event) {
	at, ok := e.Time()
	if !ok {
		return
	}
	var ev SpanEvent
	switch e.Event {
	case "PreCompact":
		ev = SpanEvent{Name: "compaction", At: at, Attrs: []Attr{String("st.compaction.trigger", e.Type)}}
	case "StopFailure":
		ev = SpanEvent{Name: "api_error", At: at, Attrs: []Attr{String("error.type", e.Error)}}
		if e.Attempt > 0 {
			ev.Attrs = append(ev.Attrs, Int("st.retry.attempt", int64(e.Attempt)))
		}
		if e.AgentID != "" {
			ev.Attrs = append(ev.Attrs, String("gen_ai.agent.id", e.AgentID))
		}
	case "Notification":
		ev = SpanEvent{Name: "notification", At: at, Attrs: []Attr{String("st.notification.type", e.Type)}}
	default:
		return
	}
	s := b.span(b.spanAt(at))
	s.Events = append(s.Events, ev)
}

// addCall adds a model call's chat span under parent.
func (b *builder) addCall(c ModelCall, parent, agentID string) {
	key := "chat/" + c.ID
	if agentID != "" {
		key = "agent/" + agentID + "/" + key
	}
	k := b.add(key, parent, "chat "+cmp.Or(c.Model, "model"), "client", c.Start, c.End)
	s := b.span(k)
	s.Attrs = append(s.Attrs, String("gen_ai.operation.name", "chat"), String("gen_ai.provider.name", Provider(c.Model)),
		String("gen_ai.request.model", c.Model), String("gen_ai.response.model", c.Model), String("gen_ai.response.id", c.ID),
		Int("gen_ai.usage.input_tokens", c.Usage.Input), Int("gen_ai.usage.output_tokens", c.Usage.Output))
	if c.Usage.CacheRead > 0 {
		s.Attrs = append(s.Attrs, Int("gen_ai.usage.cache_read.input_tokens", c.Usage.CacheRead))
	}
	if c.Usage.CacheCreation > 0 {
		s.Attrs = append(s.Attrs, Int("gen_ai.usage.cache_creation.input_tokens", c.Usage.CacheCreation))
	}
	if len(c.Tools) > 0 {
		s.Attrs = append(s.Attrs, String("st.tool_calls", strings.Join(c.Tools, ",")))
	}
}

// totals puts the session's token sums on the root span.
func (b *builder) totals(s Session) {
	var in, out int64
	add := func(calls []ModelCall) {
		for _, c := range calls {
			in, out = in+c.Usage.Input, out+c.Usage.Output
		}
	}
	add(s.Calls)
	for _, calls := range s.SubCalls {
		add(calls)
	}
	root := b.span(0)
	root.Attrs = append(root.Attrs, Int("gen_ai.usage.input_tokens", in), Int("gen_ai.usage.output_tokens", out))
	if len(s.Calls) > 0 {
		root.Attrs = append(root.Attrs, String("gen_ai.provider.name", Provider(s.Calls[0].Model)))
	}
}

// Provider is the GenAI provider name for a model's name.
func Provider(model string) string {
	switch {
	case strings.HasPrefix(model, "claude"):
		return "anthropic"
	case strings.HasPrefix(model, "gpt"), strings.HasPrefix(model, "o1"), strings.HasPrefix(model, "o3"), strings.HasPrefix(model, "o4"):
		return "openai"
	case strings.HasPrefix(model, "gemini"):
		return "gcp.gemini"
	}
	return "unknown"
}
