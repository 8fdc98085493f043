package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// Every malformed frame gets its JSON-RPC error reply and the server
// reads on: the tools/list sent after it is answered.
func TestMalformedFramesAnswered(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	tests := []struct {
		name, line string
		code       int
		id         string // the reply's id, raw
	}{
		{"plain text", "hello there", -32700, "null"},
		{"lone brace", "{", -32700, "null"},
		{"trailing NUL", `{"jsonrpc":"2.0","id":7,"method":"tools/list"}` + "\x00", -32700, "null"},
		{"two values on a line", `{"jsonrpc":"2.0","id":7,"method":"tools/list"} {}`, -32700, "null"},
		{"deep nesting", deep, -32700, "null"},
		{"deep nesting in params", `{"jsonrpc":"2.0","id":8,"method":"tools/list","params":` + deep + `}`, -32700, "null"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, -32600, "null"},
		{"missing jsonrpc", `{"id":9,"method":"tools/list"}`, -32600, "9"},
		{"wrong jsonrpc", `{"jsonrpc":"1.0","id":"x","method":"tools/list"}`, -32600, `"x"`},
		{"neither method nor id", `{"jsonrpc":"2.0"}`, -32600, "null"},
		{"a number", `42`, -32600, "null"},
		{"a batch", `[{"jsonrpc":"2.0","id":10,"method":"tools/list"}]`, -32600, "null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			mkdirs(t, root, "alice/inbox", "alice/archive")
			c, _ := runPipe(t, Config{Root: root, Agent: "alice"})
			c.send(t, initLine, initializedLine)
			c.next(t, `"id":1`, 5*time.Second)
			// In the background: a server that stopped reading must fail
			// the test, not hang it.
			go io.WriteString(c.in, tt.line+"\n"+`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\n")
			var reply struct {
				JSONRPC string          `json:"jsonrpc"`
				ID      json.RawMessage `json:"id"`
				Error   struct {
					Code    int    `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			line := c.next(t, `"error"`, 5*time.Second)
			if err := json.Unmarshal([]byte(line), &reply); err != nil {
				t.Fatalf("reply %q: %v", line, err)
			}
			if reply.JSONRPC != "2.0" || reply.Error.Code != tt.code || string(reply.ID) != tt.id || reply.Error.Message == "" {
				t.Errorf("reply %s; want code %d, id %s", line, tt.code, tt.id)
			}
			if l := c.next(t, `"id":2`, 5*time.Second); !strings.Contains(l, `"tools"`) {
				t.Errorf("tools/list after the bad frame: %.200s", l)
			}
		})
	}
}

// Blank lines and CRLF line ends are not errors.
func TestBlankLinesAndCRLF(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	c, _ := runPipe(t, Config{Root: root, Agent: "alice"})
	c.send(t, "", "  \t", initLine+"\r", initializedLine+"\r", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`+"\r")
	c.next(t, `"id":1`, 5*time.Second)
	if l := c.next(t, `"id":2`, 5*time.Second); strings.Contains(l, `"error"`) {
		t.Errorf("CRLF request failed: %s", l)
	}
}

// A frame over the limit cannot be answered: Run says why, after
// answering what came before it.
func TestFrameTooLargeEndsRun(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	in := initLine + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"x":"` + strings.Repeat("a", 5000) + `"}}` + "\n"
	var out strings.Builder
	err := Run(context.Background(), Config{Root: root, Agent: "alice", In: strings.NewReader(in), Out: &out, MaxFrame: 4096})
	if err == nil || !strings.Contains(err.Error(), "4096-byte limit") {
		t.Errorf("Run: %v, want the frame limit named", err)
	}
	if !strings.Contains(out.String(), `"id":1`) {
		t.Errorf("initialize not answered before the end: %q", out.String())
	}
	if got := readStatus(t, root); got != "offline\n" {
		t.Errorf("status %q, want offline", got)
	}
}

// A failing stdin ends Run with the reason; the end of stdin does not.
func TestReadFailureEndsRun(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   io.Reader
		want error
	}{
		{"eof", strings.NewReader(initLine + "\n"), nil},
		{"eof without newline", strings.NewReader(initLine), nil},
		{"i/o error", io.MultiReader(strings.NewReader(initLine+"\n"), iotest.ErrReader(errors.New("input/output error"))), errors.New("reading from the client: input/output error")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			mkdirs(t, root, "alice/inbox", "alice/archive")
			var out strings.Builder
			err := Run(context.Background(), Config{Root: root, Agent: "alice", In: tt.in, Out: &out})
			if (err == nil) != (tt.want == nil) || err != nil && err.Error() != tt.want.Error() {
				t.Errorf("Run: %v, want %v", err, tt.want)
			}
			if !strings.Contains(out.String(), `"id":1`) {
				t.Errorf("initialize not answered: %q", out.String())
			}
		})
	}
}

// A stdout that fails (other than the client closing it) ends Run with
// the reason.
func TestWriteFailureEndsRun(t *testing.T) {
	root := t.TempDir()
	mkdirs(t, root, "alice/inbox", "alice/archive")
	inR, inW := io.Pipe()
	defer inW.Close()
	go io.WriteString(inW, initLine+"\n")
	err := Run(context.Background(), Config{Root: root, Agent: "alice", In: inR, Out: failingWriter{}})
	if err == nil || !strings.Contains(err.Error(), "writing to the client: no space left on device") {
		t.Errorf("Run: %v, want the write failure", err)
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

func readStatus(t *testing.T, root string) string {
	t.Helper()
	b, _ := os.ReadFile(filepath.Join(root, "alice", "status"))
	return string(b)
}
