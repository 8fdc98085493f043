package events

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// Event.field names every field by its JSON name: a field added to the
// struct but not there would always go the slow way.
func TestFieldNamesEveryField(t *testing.T) {
	typ := reflect.TypeFor[Event]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		var e Event
		got := e.field([]byte(name))
		if got == nil || reflect.ValueOf(got).Pointer() != reflect.ValueOf(&e).Elem().Field(i).Addr().Pointer() {
			t.Errorf("field(%q) is not %s", name, f.Name)
		}
	}
}

// plainSeeds are lines as Marshal writes them, and near misses.
func plainSeeds() []string {
	full := Event{TS: "2026-12-04T14:41:10.221Z", Event: "PostToolUse", Session: "8ef91779", AgentID: "a1", AgentType: "Explore",
		Tool: "Bash", Path: "/w/x.go", Command: "go test ./...", Input: "a1b2", Bytes: 1234, ToolMS: 532, Error: "exit 1",
		Interrupt: true, Type: "startup", Title: "t", Message: "m", Advice: "context-80", Attempt: 2, RetryAt: "2026-12-04T14:42:00.000Z",
		CtxTokens: 45000, CtxWindow: 200000, Model: "claude-x", Transcript: "/t.jsonl", Cwd: "/w", Host: "vm", Pane: "%1",
		Via: "mcp", Judge: "0.9", HookUS: 1500}
	line, _ := Marshal(&full)
	escaped, _ := Marshal(&Event{TS: "2026-12-04T14:41:10.221Z", Event: "PreToolUse", Command: `echo "hi" \ there` + "\n"})
	return []string{
		strings.TrimSuffix(string(line), "\n"), strings.TrimSuffix(string(escaped), "\n"),
		`{"ts":"2026-12-04T14:41:10.221Z","event":"Stop","session":"","hook_us":0}`,
		`{}`, `{"ts":"x",}`, `{"TS":"x","event":"Stop"}`, `{"ts":"x","ts":"y","event":"e"}`,
		`{"ts":"x","event":"e","bytes":01}`, `{"ts":"x","event":"e","bytes":-0}`, `{"ts":"x","event":"e","bytes":1e3}`,
		`{"ts":"x","event":"e","bytes":99999999999999999999}`, `{"ts":"x","event":"e","interrupt":truex}`,
		`{"ts":"x","event":"e","unknown":"v"}`, `{"ts":"x","event":"e","tool":null}`, `{"ts":"x", "event":"e"}`,
		"{\"ts\":\"\xff\",\"event\":\"e\"}", `{"ts":"x","event":"e","attempt":"2"}`, `{"ts":"x","event":"e"} `,
		`{"ts":"x","event":"e","message":"a` + "\u2028" + `b<&>"}`,
	}
}

// Where parsePlain decodes a line, encoding/json decodes it too, to the
// same Event.
func FuzzParsePlain(f *testing.F) {
	for _, s := range plainSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var plain, std Event
		if !parsePlain(line, &plain) {
			return
		}
		if err := json.Unmarshal(line, &std); err != nil {
			t.Fatalf("parsePlain took %q, which encoding/json refuses: %v", line, err)
		}
		if plain != std {
			t.Fatalf("%q: parsePlain %+v, encoding/json %+v", line, plain, std)
		}
	})
}

// The lines Marshal writes without escapes take the plain way; the
// others do not, and Parse still reads both.
func TestParsePlainTakesMarshalledLines(t *testing.T) {
	seeds := plainSeeds()
	for i, want := range []bool{true, false, true} {
		var e Event
		if got := parsePlain([]byte(seeds[i]), &e); got != want {
			t.Errorf("parsePlain(%s) = %v, want %v", seeds[i], got, want)
		}
		if _, ok := Parse([]byte(seeds[i])); !ok {
			t.Errorf("Parse(%s) failed", seeds[i])
		}
	}
}
