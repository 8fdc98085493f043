package events

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

// goMarshal is what encoding/json writes for e, the reference Marshal
// follows.
func goMarshal(t *testing.T, e *Event) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func FuzzMarshal(f *testing.F) {
	f.Add("2026-12-02T01:02:03.456Z", "PostToolUse", "s1", "Bash", "ls -la\n\"x\"", "boom\x00\xff", int64(12), 3, true, int64(50000), "claude-x")
	f.Add("", "", "", "", "", "", int64(0), 0, false, int64(0), "")
	f.Add("t", "Stop", "sé<&>", "Edit", "a\u2028b", "\t\\", int64(-1), -2, false, int64(-7), "m\u2029")
	f.Fuzz(func(t *testing.T, ts, event, session, tool, command, errText string, n int64, attempt int, interrupt bool, tokens int64, model string) {
		e := &Event{TS: ts, Event: event, Session: session, AgentType: model, Tool: tool,
			Path: session + tool, Command: command, Input: ts, Bytes: n, ToolMS: -n,
			Error: errText, Interrupt: interrupt, Type: event, Title: command, Message: errText,
			Advice: tool, Attempt: attempt, RetryAt: ts, CtxTokens: tokens, Model: model,
			Cwd: command, Host: session, Pane: tool, Via: event, Judge: errText, HookUS: n}
		got, err := Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		want := goMarshal(t, e)
		// encoding/json escapes U+2028 and U+2029; Marshal leaves them, as
		// JSON.stringify does. Both are valid JSON for the same value.
		want = bytes.ReplaceAll(want, []byte(`\u2028`), []byte("\u2028"))
		want = bytes.ReplaceAll(want, []byte(`\u2029`), []byte("\u2029"))
		if !bytes.Equal(got, want) {
			t.Fatalf("Marshal:\n got %q\nwant %q", got, want)
		}
		var back Event
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("not JSON: %v: %q", err, got)
		}
	})
}

// Every field of Event is written, under its json tag's name: a field
// added to Event and forgotten in Marshal fails here.
func TestMarshalCoversEveryField(t *testing.T) {
	e := &Event{}
	v := reflect.ValueOf(e).Elem()
	for i := 0; i < v.NumField(); i++ {
		switch f := v.Field(i); f.Kind() {
		case reflect.String:
			f.SetString(fmt.Sprint("v", i))
		case reflect.Int, reflect.Int64:
			f.SetInt(int64(i + 1))
		case reflect.Bool:
			f.SetBool(true)
		default:
			t.Fatalf("field %s: kind %s is not handled by Marshal", v.Type().Field(i).Name, f.Kind())
		}
	}
	got, _ := Marshal(e)
	if want := goMarshal(t, e); !bytes.Equal(got, want) {
		t.Errorf("Marshal = %s\nencoding/json = %s", got, want)
	}
}
