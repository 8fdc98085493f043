package trace

import (
	"reflect"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
)

func at(sec int) time.Time { return time.Date(2026, 12, 1, 10, 0, sec, 0, time.UTC) }

func line(sec int, event string, mod func(*events.Event)) events.Event {
	e := events.Event{TS: events.Stamp(at(sec)), Event: event, Session: "s1"}
	if mod != nil {
		mod(&e)
	}
	return e
}

// sample is a session of two prompts: the first runs a tool, a subagent
// (with a tool and a model call of its own), a failing tool and a
// compaction; the second ends on an API error.
func sample() Session {
	return Session{Agent: "alice", ID: "s1",
		Events: []events.Event{
			line(0, "SessionStart", func(e *events.Event) { e.Cwd, e.Host = "/w/proj", "h1" }),
			line(1, "UserPromptSubmit", nil),
			line(4, "PostToolUse", func(e *events.Event) { e.Tool, e.Command, e.ToolMS = "Bash", "go test ./...", 2000 }),
			line(5, "SubagentStart", func(e *events.Event) { e.AgentID, e.AgentType = "a1", "Explore" }),
			line(7, "PostToolUse", func(e *events.Event) { e.Tool, e.AgentID, e.ToolMS = "Grep", "a1", 500 }),
			line(8, "SubagentStop", func(e *events.Event) { e.AgentID, e.AgentType, e.Message = "a1", "Explore", "Found 3 callers" }),
			line(9, "PostToolUseFailure", func(e *events.Event) { e.Tool, e.Error = "Bash", "exit status 3" }),
			line(10, "PreCompact", func(e *events.Event) { e.Type = "auto" }),
			line(12, "Stop", nil),
			line(20, "UserPromptSubmit", nil),
			line(25, "StopFailure", func(e *events.Event) { e.Error, e.Attempt = "overloaded", 1 }),
			line(30, "SessionEnd", func(e *events.Event) { e.Type = "prompt_input_exit" }),
		},
		Calls: []ModelCall{
			{ID: "m1", Model: "claude-opus-5-5", Start: at(1), End: at(2), Usage: Usage{Input: 50000, Output: 10}, Tools: []string{"Bash"}},
			{ID: "m2", Model: "claude-opus-5-5", Start: at(21), End: at(22), Usage: Usage{Input: 140000, Output: 12, CacheRead: 9}},
		},
		SubCalls: map[string][]ModelCall{"a1": {{ID: "m9", Model: "claude-haiku", Start: at(6), End: at(6), Usage: Usage{Input: 300, Output: 4}}}},
	}
}

func TestBuild(t *testing.T) {
	tr := Build(sample())
	byName := map[string]*Span{}
	ids := map[string]bool{}
	for i := range tr.Spans {
		s := &tr.Spans[i]
		if ids[s.ID] || len(s.ID) != 16 {
			t.Errorf("span %q has id %q: repeated or malformed", s.Name, s.ID)
		}
		ids[s.ID] = true
		byName[s.Name] = s
	}
	if len(tr.TraceID) != 32 {
		t.Errorf("trace id %q", tr.TraceID)
	}
	root := &tr.Spans[0]
	parentOf := func(name string) string {
		s, ok := byName[name]
		if !ok {
			t.Fatalf("no span %q in %v", name, names(tr))
		}
		for i := range tr.Spans {
			if tr.Spans[i].ID == s.Parent {
				return tr.Spans[i].Name
			}
		}
		return ""
	}
	for _, tt := range []struct{ span, parent string }{
		{"invoke_agent alice", ""},
		{"turn 1", "invoke_agent alice"}, {"turn 2", "invoke_agent alice"},
		{"execute_tool Bash", "turn 1"}, // the successful one; the failure shares its name
		{"invoke_agent Explore", "turn 1"},
		{"execute_tool Grep", "invoke_agent Explore"},
		{"chat claude-haiku", "invoke_agent Explore"},
	} {
		if got := parentOf(tt.span); got != tt.parent {
			t.Errorf("%s: parent %q, want %q", tt.span, got, tt.parent)
		}
	}
	if root.Name != "invoke_agent alice" || root.Start != at(0) || root.End != at(30) {
		t.Errorf("root %s %v..%v", root.Name, root.Start, root.End)
	}
	wantAttr(t, root, "gen_ai.usage.input_tokens", Int("gen_ai.usage.input_tokens", 190300))
	wantAttr(t, root, "gen_ai.conversation.id", String("gen_ai.conversation.id", "s1"))
	wantAttr(t, root, "st.cwd", String("st.cwd", "/w/proj"))
	wantAttr(t, root, "st.session.end_reason", String("st.session.end_reason", "prompt_input_exit"))
	turn1, turn2 := byName["turn 1"], byName["turn 2"]
	if turn1.End != at(12) || turn2.End != at(25) {
		t.Errorf("turns end at %v and %v, want the Stop's and the API error's", turn1.End, turn2.End)
	}
	var chats, tools, failed int
	for i := range tr.Spans {
		s := &tr.Spans[i]
		switch a, _ := s.Attr("gen_ai.operation.name"); a.Str {
		case "chat":
			chats++
			if s.Kind != "client" {
				t.Errorf("%s is not a client span", s.Name)
			}
		case "execute_tool":
			tools++
			if s.Error != "" {
				failed++
			}
		}
	}
	if chats != 3 || tools != 3 || failed != 1 {
		t.Errorf("%d chat spans, %d tool spans (%d failed), want 3, 3 (1)", chats, tools, failed)
	}
	for i := range tr.Spans {
		if s := &tr.Spans[i]; s.Name == "chat claude-opus-5-5" && s.Parent == turn2.ID {
			wantAttr(t, s, "gen_ai.usage.input_tokens", Int("gen_ai.usage.input_tokens", 140000))
			wantAttr(t, s, "gen_ai.usage.output_tokens", Int("gen_ai.usage.output_tokens", 12))
			wantAttr(t, s, "gen_ai.usage.cache_read.input_tokens", Int("gen_ai.usage.cache_read.input_tokens", 9))
			wantAttr(t, s, "gen_ai.provider.name", String("gen_ai.provider.name", "anthropic"))
		}
	}
	if bash := byName["execute_tool Grep"]; bash.End.Sub(bash.Start) != 500*time.Millisecond {
		t.Errorf("Grep lasted %v, want its tool_ms", bash.End.Sub(bash.Start))
	}
	if len(turn1.Events) != 1 || turn1.Events[0].Name != "compaction" || len(turn2.Events) != 1 || turn2.Events[0].Name != "api_error" {
		t.Errorf("turn events: %+v / %+v", turn1.Events, turn2.Events)
	}
	if sub := byName["invoke_agent Explore"]; sub.Start != at(5) || sub.End != at(8) {
		t.Errorf("subagent span %v..%v", sub.Start, sub.End)
	}
}

// The same session gives the same trace (a re-send is the same spans);
// another session, or the same one of another agent, another trace.
func TestBuildIsDeterministic(t *testing.T) {
	a, b := Build(sample()), Build(sample())
	if !reflect.DeepEqual(a, b) {
		t.Errorf("two builds of one session differ")
	}
	other := sample()
	other.ID = "s2"
	bob := sample()
	bob.Agent = "bob"
	if Build(other).TraceID == a.TraceID || Build(bob).TraceID == a.TraceID || Build(other).Spans[0].ID == a.Spans[0].ID {
		t.Errorf("different sessions share ids")
	}
}

func wantAttr(t *testing.T, s *Span, key string, want Attr) {
	t.Helper()
	if got, ok := s.Attr(key); !ok || got != want {
		t.Errorf("%s: %s = %+v, want %+v", s.Name, key, got, want)
	}
}

func names(tr Trace) []string {
	var out []string
	for _, s := range tr.Spans {
		out = append(out, s.Name)
	}
	return out
}
