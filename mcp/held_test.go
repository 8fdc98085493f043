package mcp

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/reserve"
)

// hostile is text a reason may hold: what Go's encoder and
// JSON.stringify escape differently, quotes, controls, bad UTF-8.
const hostile = "<b>&amp;</b> \u2028\u2029 \"q\" \\ \t\x01\x7f é \xff 😀"

// writeReservation stores r as Reserve writes it.
func writeReservation(t *testing.T, root string, r reserve.Reservation) {
	t.Helper()
	dir := filepath.Join(root, r.Agent, reserve.Folder)
	mkdirs(t, root, filepath.Join(r.Agent, reserve.Folder))
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, r.ID+".json"), append(data, '\n'), 0o666); err != nil {
		t.Fatal(err)
	}
}

// st_reservations' reply is the JSON-RPC line the SDK wrote before its
// structured content was held back: the same bytes, JSON.stringify's
// escapes, conflict marks and all.
func TestReservationsReplyBytes(t *testing.T) {
	root := t.TempDir()
	now := time.Now().UTC().Truncate(time.Second)
	expires := now.Add(time.Hour)
	list := []reserve.Reservation{
		{ID: "1800000000000-000001", Agent: "bob", Repo: "/repo", Pattern: "src/**", Mode: reserve.Exclusive,
			Reason: hostile, Created: now, Expires: expires},
		{ID: "1800000000001-000002", Agent: "carol", Repo: "/repo", Pattern: "src/a.go", Mode: reserve.Exclusive,
			Created: now, Expires: expires},
		{ID: "1800000000002-000003", Agent: "carol", Repo: "/other <&>", Pattern: "**/*.go", Mode: reserve.Shared,
			Reason: "x", Created: now, Expires: expires},
	}
	for _, r := range list {
		writeReservation(t, root, r)
	}
	c, _ := runPipe(t, Config{Root: root, Agent: "alice"})
	c.send(t, initLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"st_reservations","arguments":{}}}`)
	got := c.next(t, `"id":2`, 10*time.Second)

	list[0].Reason = strings.ToValidUTF8(hostile, "\uFFFD") // as the store gives it back
	out := reservationsOut{Reservations: toOut(list, map[string]bool{list[0].ID: true, list[1].ID: true})}
	structured, err := jsstr.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3 active reservations"}],"structuredContent":` +
		string(structured) + `}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(got, "<b>&amp;</b> \u2028\u2029") {
		t.Errorf("reason not written as JSON.stringify writes it: %s", got)
	}
}

// A call in the modern protocol keeps what the SDK adds to its result
// (resultType, the server's identity in _meta) around the structured
// content put back, and the string id.
func TestHeldResultModernProtocol(t *testing.T) {
	root := t.TempDir()
	now := time.Now().UTC()
	writeReservation(t, root, reserve.Reservation{ID: "1800000000000-000001", Agent: "bob", Repo: "/repo",
		Pattern: "src/**", Mode: reserve.Exclusive, Reason: hostile, Created: now, Expires: now.Add(time.Hour)})
	c, _ := runPipe(t, Config{Root: root, Agent: "alice"})
	c.send(t, `{"jsonrpc":"2.0","id":"call-<1>","method":"tools/call","params":{"name":"st_reservations","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`)
	got := c.next(t, `"id":"call-<1>"`, 10*time.Second)
	var reply struct {
		Result struct {
			Meta              map[string]any  `json:"_meta"`
			ResultType        string          `json:"resultType"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(got), &reply); err != nil {
		t.Fatalf("%v: %s", err, got)
	}
	if reply.Result.ResultType != "complete" || reply.Result.Meta == nil {
		t.Errorf("resultType %q, _meta %v: %s", reply.Result.ResultType, reply.Result.Meta, got)
	}
	var out reservationsOut
	if err := json.Unmarshal(reply.Result.StructuredContent, &out); err != nil || len(out.Reservations) != 1 ||
		out.Reservations[0].Reason != strings.ToValidUTF8(hostile, "\uFFFD") {
		t.Errorf("structuredContent %s (%v)", reply.Result.StructuredContent, err)
	}
}

func TestHeldSplice(t *testing.T) {
	var h heldResults
	p1 := h.hold([]byte(`{"a":[1,2]}`))
	p2 := h.hold([]byte(`{"b":"<&>"}`))
	result := func(text string, p json.RawMessage) []byte {
		return []byte(`{"content":[{"type":"text","text":` + string(jsstr.AppendString(nil, text)) + `}],"structuredContent":` + string(p) + `}`)
	}
	tests := []struct {
		name, in, want string
	}{
		{"second", string(result("x", p2)), `{"content":[{"type":"text","text":"x"}],"structuredContent":{"b":"<&>"}}`},
		{"first", string(result("y", p1)), `{"content":[{"type":"text","text":"y"}],"structuredContent":{"a":[1,2]}}`},
		{"taken already", string(result("y", p1)), string(result("y", p1))},
		{"not held here", string(result("z", json.RawMessage(`"st:held:99"`))), string(result("z", json.RawMessage(`"st:held:99"`)))},
		// A text that spells a placeholder is escaped, so it is no placeholder.
		{"in a text", string(result(`"structuredContent":"st:held:1"`, json.RawMessage(`{}`))), string(result(`"structuredContent":"st:held:1"`, json.RawMessage(`{}`)))},
		{"no structured content", `{"content":[]}`, `{"content":[]}`},
		{"unterminated", `{"structuredContent":"st:held:1`, `{"structuredContent":"st:held:1`},
		{"not a number", `{"structuredContent":"st:held:x"}`, `{"structuredContent":"st:held:x"}`},
	}
	for _, tt := range tests {
		if got := string(h.splice([]byte(tt.in))); got != tt.want {
			t.Errorf("%s: splice(%s)\n = %s\nwant %s", tt.name, tt.in, got, tt.want)
		}
	}
	if n := h.pending(); n != 0 {
		t.Errorf("%d still held", n)
	}
}

// encodeResult writes what EncodeMessage writes, or leaves the message to
// it.
func TestEncodeResult(t *testing.T) {
	id := func(v any) jsonrpc.ID {
		id, err := jsonrpc.MakeID(v)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	result := json.RawMessage(`{"content":[{"type":"text","text":"<b>&\u2028 é"}],"structuredContent":{"n":-1.5e-7,"a":[]}}`)
	tests := []struct {
		name string
		msg  jsonrpc.Message
		fast bool
	}{
		{"number id", &jsonrpc.Response{ID: id(float64(7)), Result: result}, true},
		{"negative id", &jsonrpc.Response{ID: id(float64(-3)), Result: json.RawMessage(`{}`)}, true},
		{"string id", &jsonrpc.Response{ID: id(`a"<&>\é` + "\x01"), Result: result}, true},
		{"string id with U+2028", &jsonrpc.Response{ID: id("a\u2028"), Result: result}, false},
		{"error", &jsonrpc.Response{ID: id(float64(1)), Error: &jsonrpc.Error{Code: -32600, Message: "no"}}, false},
		{"no result", &jsonrpc.Response{ID: id(float64(1))}, false},
		{"request", &jsonrpc.Request{ID: id(float64(1)), Method: "ping"}, false},
		{"notification", &jsonrpc.Request{Method: "notifications/x", Params: json.RawMessage(`{}`)}, false},
	}
	for _, tt := range tests {
		got, ok := encodeResult(tt.msg)
		if ok != tt.fast {
			t.Errorf("%s: ok = %v", tt.name, ok)
			continue
		}
		if !ok {
			continue
		}
		want, err := jsonrpc.EncodeMessage(tt.msg)
		if err != nil {
			t.Fatal(err)
		}
		if want = append(want, '\n'); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", tt.name, got, want)
		}
	}
}

// reservationsOut encodes itself as jsstr.Marshal encodes it.
func FuzzReservationsAppendJSON(f *testing.F) {
	f.Add("1800000000000-000001", "bob", "/repo", "src/**", "exclusive", hostile, "2027-01-01T00:00:00Z", true, 2)
	f.Add("", "", "", "", "", "", "", false, 0)
	f.Fuzz(func(t *testing.T, id, agent, repo, pattern, mode, reason, expires string, conflict bool, n int) {
		out := reservationsOut{}
		if n >= 0 {
			out.Reservations = []reservationOut{}
		}
		for i := range n % 4 {
			out.Reservations = append(out.Reservations, reservationOut{ID: id, Agent: agent, Repo: repo, Pattern: pattern,
				Mode: mode, Reason: reason, Expires: expires, Conflict: conflict == (i%2 == 0)})
		}
		want, err := jsstr.Marshal(out)
		if err != nil {
			t.Fatal(err)
		}
		if got := out.appendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("appendJSON\n got %s\nwant %s", got, want)
		}
	})
}
