package wiring

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

const editBin = "/opt/bin/st"

// editServer is st's server as `st mcp`, as a config written before
// st-mcp was run directly has it.
var editServer = STMCPServer(editBin, false)

// checkSetCodexMCP checks what holds for every edit SetCodexMCP makes:
// the result parses, holds st's table as wanted, is unchanged by a second
// run, and decodes to the input but for mcp_servers.st.
func checkSetCodexMCP(t *testing.T, name string, in, out []byte, server MCPServer) {
	t.Helper()
	var before, after map[string]any
	if err := toml.Unmarshal(out, &after); err != nil {
		t.Fatalf("%s: result does not parse: %v\n%s", name, err, out)
	}
	st := after["mcp_servers"].(map[string]any)["st"].(map[string]any)
	if st["command"] != server.Command || !reflect.DeepEqual(st["args"], server.JSONArgs()) ||
		!reflect.DeepEqual(st["env_vars"], []any{"ST_ROOT", "ST_AGENT"}) {
		t.Errorf("%s: st's table is %v", name, st)
	}
	again, err := SetCodexMCP("c.toml", out, server)
	if err != nil || string(again) != string(out) {
		t.Errorf("%s: a second run changed the file (%v):\n%s", name, err, again)
	}
	if toml.Unmarshal(in, &before) != nil {
		return // the input had copies of the table: nothing to compare
	}
	for _, m := range []map[string]any{before, after} {
		if servers, ok := m["mcp_servers"].(map[string]any); ok {
			if st, ok := servers["st"].(map[string]any); ok {
				delete(st, "command")
				delete(st, "args")
				delete(st, "env_vars")
				if len(st) == 0 {
					delete(servers, "st")
				}
			}
			if len(servers) == 0 {
				delete(m, "mcp_servers")
			}
		}
	}
	if !reflect.DeepEqual(before, after) {
		t.Errorf("%s: the rest of the file changed:\n%v\n%v", name, before, after)
	}
}

func TestSetCodexMCP(t *testing.T) {
	frag := CodexMCPFragment(editServer)
	for _, tc := range []struct {
		name, in, want string // want "": only the invariants
		errLine        int
	}{
		{name: "empty file", in: "", want: frag},
		{name: "no table yet", in: "model = \"gpt-5\"\n# mine\n[tui]\nx = 1\n", want: "model = \"gpt-5\"\n# mine\n[tui]\nx = 1\n\n" + frag},
		{name: "no final newline", in: "model = \"gpt-5\"", want: "model = \"gpt-5\"\n\n" + frag},
		{name: "already there", in: "a = 1\n\n" + frag + "\n# after\n[b]\nc = 2\n", want: "a = 1\n\n" + frag + "\n# after\n[b]\nc = 2\n"},
		{name: "another st, other keys kept",
			in:   "[mcp_servers.st]\n# the server\ncommand = \"/old/st\"  # old\nstartup_timeout_sec = 30\nargs = [\n  \"mcp\",\n]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n\n[mcp_servers.other]\ncommand = \"x\"\n",
			want: "[mcp_servers.st]\n# the server\ncommand = \"/opt/bin/st\"\nstartup_timeout_sec = 30\nargs = [\"mcp\"]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n\n[mcp_servers.other]\ncommand = \"x\"\n"},
		{name: "keys missing", in: "[mcp_servers.st]\ncommand = \"/opt/bin/st\"\n\n[x]\n", want: "[mcp_servers.st]\ncommand = \"/opt/bin/st\"\nargs = [\"mcp\"]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n\n[x]\n"},
		{name: "header only, at the end", in: "[mcp_servers.st]", want: "[mcp_servers.st]\ncommand = \"/opt/bin/st\"\nargs = [\"mcp\"]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n"},
		{name: "appended twice", in: "model = \"m\"\n" + frag + frag, want: "model = \"m\"\n" + frag},
		{name: "appended three times among others", in: frag + "\n[a]\nb = 1\n\n" + frag + "\n[c]\nd = 2\n" + frag, want: frag + "\n[a]\nb = 1\n\n\n[c]\nd = 2\n"},
		{name: "sub-table kept", in: "[mcp_servers.st.env]\nFOO = \"1\"\n\n[mcp_servers.st]\ncommand = \"/old\"\n", want: "[mcp_servers.st.env]\nFOO = \"1\"\n\n[mcp_servers.st]\ncommand = \"/opt/bin/st\"\nargs = [\"mcp\"]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n"},
		{name: "table in a string", in: "notes = \"\"\"\n[mcp_servers.st]\ncommand = \"x\"\n\"\"\"\n", want: "notes = \"\"\"\n[mcp_servers.st]\ncommand = \"x\"\n\"\"\"\n\n" + frag},
		{name: "quoted and spaced header", in: "[ mcp_servers . \"st\" ]\ncommand = \"/old\"\n", want: "[ mcp_servers . \"st\" ]\ncommand = \"/opt/bin/st\"\nargs = [\"mcp\"]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n"},
		{name: "dotted keys", in: "a = 1\nmcp_servers.st.command = \"x\"\n", errLine: 2},
		{name: "inline table", in: "[mcp_servers]\nst = { command = \"x\" }\n", errLine: 2},
		{name: "invalid elsewhere", in: "a = 1\nb = \n", errLine: 2},
		{name: "duplicate elsewhere", in: "[a]\n[a]\n" + frag, errLine: 2},
	} {
		out, err := SetCodexMCP("c.toml", []byte(tc.in), editServer)
		if tc.errLine > 0 {
			var te *TOMLError
			if !errors.As(err, &te) || te.Line != tc.errLine {
				t.Errorf("%s: error %v, want one on line %d\n%s", tc.name, err, tc.errLine, out)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.want != "" && string(out) != tc.want {
			t.Errorf("%s:\ngot:\n%s\nwant:\n%s", tc.name, out, tc.want)
		}
		checkSetCodexMCP(t, tc.name, []byte(tc.in), out, editServer)
	}
}

// TestSetCodexMCPToSTMCP moves a table that runs `st mcp` to st-mcp
// itself, its other keys kept.
func TestSetCodexMCPToSTMCP(t *testing.T) {
	server := DirectMCPServer("/opt/bin/st-mcp", false)
	in := "[mcp_servers.st]\ncommand = \"/opt/bin/st\"\nstartup_timeout_sec = 30\nargs = [\"mcp\"]\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n"
	want := "[mcp_servers.st]\ncommand = \"/opt/bin/st-mcp\"\nstartup_timeout_sec = 30\nargs = []\nenv_vars = [\"ST_ROOT\", \"ST_AGENT\"]\n"
	out, err := SetCodexMCP("c.toml", []byte(in), server)
	if err != nil || string(out) != want {
		t.Fatalf("got (%v):\n%s\nwant:\n%s", err, out, want)
	}
	checkSetCodexMCP(t, "to st-mcp", []byte(in), out, server)
}

// FuzzSetCodexMCP: any input is refused or edited into a file that
// parses, holds st's table, is stable, and keeps the rest.
func FuzzSetCodexMCP(f *testing.F) {
	f.Add("model = \"m\"\n[mcp_servers.st]\ncommand = \"/old\"\n")
	f.Add(CodexMCPFragment(editServer) + CodexMCPFragment(editServer))
	f.Add("notes = '''\n[mcp_servers.st]\n'''\n[mcp_servers.st.env]\nA = 'b'\n")
	f.Fuzz(func(t *testing.T, in string) {
		out, err := SetCodexMCP("c.toml", []byte(in), editServer)
		if err != nil {
			if !strings.Contains(err.Error(), "c.toml:") {
				t.Fatalf("error without a position: %v", err)
			}
			return
		}
		checkSetCodexMCP(t, "fuzz", []byte(in), out, editServer)
	})
}
