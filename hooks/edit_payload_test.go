package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/reserve"
	"github.com/smalltalk-go/st/toolcall"
)

// recorded reads a payload recorded from a real client
// (e2e/<client>/testdata/payloads) into a map, to be reshaped.
func recorded(t testing.TB, client, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "e2e", client, "testdata", "payloads", name))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

var later = time.Now().Add(time.Hour)

// A payload of up to 1 MiB is read as sent, byte for byte, even when it
// is not JSON.
func TestEditPayloadSmallAsSent(t *testing.T) {
	for _, name := range []string{"claudecode/PreToolUse.json", "codex/PreToolUse-apply_patch.json", "codex/PreToolUse-apply_patch-shell.json"} {
		data, err := os.ReadFile(filepath.Join("..", "e2e", filepath.Dir(name), "testdata", "payloads", filepath.Base(name)))
		if err != nil {
			t.Fatal(err)
		}
		for _, in := range [][]byte{data, append(data, "\n\n"...), data[:len(data)/2], []byte("not json"), nil,
			append(bytes.Repeat([]byte(" "), editLimits.small-len(data)), data...)} {
			got, cut := readEditPayload(bytes.NewReader(in), later)
			if !bytes.Equal(got, in) || cut != "" {
				t.Errorf("%s (%d bytes): read %d bytes, cut %q; want it as sent", name, len(in), len(got), cut)
			}
		}
	}
}

// A 3 MB Write and a 3 MB apply_patch (the recorded payloads' shape)
// are read thinned: every field the hooks read, the content dropped,
// every path the patch names kept.
func TestEditPayloadBig(t *testing.T) {
	big := strings.Repeat("x", 3<<20)
	write := recorded(t, "claudecode", "PreToolUse.json")
	write["tool_name"] = "Write"
	write["tool_input"] = map[string]any{"file_path": "/work/proj/src/a.go", "content": big}

	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n*** Update File: src/first.go\n@@\n")
	for patch.Len() < 3<<20 {
		patch.WriteString("+\tline with \"quotes\", a \\ and *** Add File: not-a-marker\n")
	}
	patch.WriteString("*** Add File: src/last.go\n+package src\n*** End Patch\n")
	apply := recorded(t, "codex", "PreToolUse-apply_patch.json")
	apply["tool_input"] = map[string]any{"command": patch.String()}
	shell := recorded(t, "codex", "PreToolUse-apply_patch-shell.json")
	shell["tool_input"] = map[string]any{"command": "cd src && apply_patch <<'EOF'\n" + patch.String() + "EOF\n"}

	for _, tc := range []struct {
		name    string
		payload map[string]any
		path    string   // FilePathOf
		paths   []string // PatchPaths
		dirs    []string // the folders they are in: src does not exist, so the cd may fail
	}{
		{"Write", write, "/work/proj/src/a.go", nil, nil},
		{"apply_patch", apply, "", []string{"src/first.go", "src/last.go"}, []string{"$TMP/proj"}},
		{"shell apply_patch", shell, "", []string{"src/first.go", "src/last.go"}, []string{"$TMP/proj/src", "$TMP/proj"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			full := marshal(t, tc.payload)
			got, cut := readEditPayload(bytes.NewReader(full), later)
			if cut != "" {
				t.Fatalf("cut: %s", cut)
			}
			if len(got) > 64<<10 {
				t.Errorf("kept %d bytes of %d", len(got), len(full))
			}
			p, ok := ParsePayload(got)
			want, _ := ParsePayload(full)
			if !ok || p.ToolName != want.ToolName || p.Cwd != want.Cwd || p.SessionID != want.SessionID || p.HookEventName != want.HookEventName {
				t.Fatalf("thinned payload %s, want the fields of %.300s", got, full)
			}
			in := p.Input()
			if in.FilePathOf() != tc.path {
				t.Errorf("path %q, want %q", in.FilePathOf(), tc.path)
			}
			if tc.paths != nil {
				e := codexEffect(p)
				var want []string
				for _, rel := range tc.paths {
					for _, dir := range tc.dirs {
						want = append(want, filepath.Join(dir, rel))
					}
				}
				if got := namedPaths(e.Writes); e.Blind != "" || len(e.Undecided) > 0 || !slices.Equal(got, want) {
					t.Errorf("writes %q (undecided %v, blind %q), want %q", got, e.Undecided, e.Blind, want)
				}
			}
		})
	}
}

// stallAfter gives data, then blocks until the test ends.
type stallAfter struct {
	data []byte
	stop chan struct{}
}

func (s *stallAfter) Read(p []byte) (int, error) {
	if len(s.data) == 0 {
		<-s.stop
		return 0, io.EOF
	}
	n := copy(p, s.data)
	s.data = s.data[n:]
	return n, nil
}

// An input that does not arrive whole by the deadline gives what came
// (here the tool's name) and says why the rest is missing; so does one
// that breaks off.
func TestEditPayloadCut(t *testing.T) {
	start := `{"session_id":"s1","tool_name":"Write","tool_input":{"content":"` + strings.Repeat("x", 2<<20)
	s := &stallAfter{data: []byte(start), stop: make(chan struct{})}
	defer close(s.stop)
	got, cut := readEditPayload(s, time.Now().Add(300*time.Millisecond))
	p, _ := ParsePayload(got)
	if !strings.Contains(cut, "time budget") || p.ToolName != "Write" || p.SessionID != "s1" {
		t.Errorf("read %s, cut %q", got, cut)
	}
	got, cut = readEditPayload(strings.NewReader(start), later)
	if p, _ := ParsePayload(got); cut != "its input is not valid JSON" || p.ToolName != "Write" {
		t.Errorf("read %s, cut %q", got, cut)
	}
}

// small are limits small enough that short inputs exercise the thinning.
var small = thinLimits{small: 0, field: 16, head: 48, line: 24, markers: 1 << 20}

// checkThinned compares what the hooks read from a thinned payload with
// what they read from the whole one: the same tool, path and files
// written, unless the thinned read says it is cut or that it cannot rely
// on what it kept.
func checkThinned(t *testing.T, tool, command string) {
	full, err := json.Marshal(map[string]any{"cwd": "/p", "tool_name": tool, "tool_input": map[string]any{"command": command, "file_path": "a"}})
	if err != nil {
		return
	}
	got, cut := readEditPayloadWith(bytes.NewReader(full), later, small)
	want, _ := ParsePayload(full)
	p, ok := ParsePayload(got)
	if !ok {
		t.Fatalf("thinned %q to invalid JSON %q", full, got)
	}
	if cut != "" {
		return
	}
	if p.ToolName != want.ToolName || p.Cwd != want.Cwd || p.Input().FilePathOf() != want.Input().FilePathOf() {
		t.Fatalf("thinned %q to %q", full, got)
	}
	w := codexEffect(want)
	g := codexEffect(p)
	if g.Blind != "" && w.Blind == "" && strings.Contains(g.Blind, "could not read this command whole") {
		return // stricter: the thinned command cannot be relied on
	}
	if !slices.Equal(namedPaths(w.Writes), namedPaths(g.Writes)) || !slices.Equal(namedPaths(w.Undecided), namedPaths(g.Undecided)) ||
		(w.Blind == "") != (g.Blind == "") {
		t.Fatalf("command %q\nthinned to %q:\nwrites %q undecided %q blind %q, want %q %q %q",
			command, p.Input().Command, namedPaths(g.Writes), namedPaths(g.Undecided), g.Blind,
			namedPaths(w.Writes), namedPaths(w.Undecided), w.Blind)
	}
}

// codexEffect is what a Codex tool call writes, as codex-pre-tool-use
// reads it.
func codexEffect(p Payload) toolcall.Effect {
	tc, ok := toolCallOf(&call{p: p}, client(Codex))
	if !ok {
		return toolcall.Effect{}
	}
	return toolcall.Of(tc)
}

// namedPaths are the paths of list.
func namedPaths(list []toolcall.Named) []string {
	var out []string
	for _, n := range list {
		out = append(out, n.Path)
	}
	return out
}

func TestEditPayloadThinnedDecidesTheSame(t *testing.T) {
	const body = "+some content line that is long enough to be dropped\n"
	for _, command := range []string{
		"*** Begin Patch\n*** Update File: a\n" + body + "*** Add File: b\n" + body + "*** End Patch\n",
		"cd src && apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: x\n" + body + "*** Move to: y\n*** End Patch\nEOF\n",
		"cd src; apply_patch <<'EOF'\r\n*** Begin Patch\r\n\t*** Update File: tab\r\n" + body + "\u00a0*** Add File: nbsp\n*** End Patch\n",
		"*** Begin Patch\n" + body + " *** Add File: " + strings.Repeat("long/", 20) + "name\n" + body,
		"*** Begin Patch\n*** Add File: \"quoted\" \\ back\n+\\n not a line end\n*** End Patch\n",
		"cat <<'EOF'\n" + strings.Repeat(body, 3) + "*** Begin Patch\n*** Add File: shown\n*** End Patch\nEOF\n",
		"cd a\ncd b\ncd c\ncd d\ncd e\napply_patch <<'EOF'\n*** Begin Patch\n*** Add File: deep\n*** End Patch\nEOF\n",
		"apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: é\u2028x\n" + body + "*** End Patch\nEOF\n",
		strings.Repeat(body, 4),
	} {
		for _, tool := range []string{"apply_patch", "Bash"} {
			checkThinned(t, tool, command)
		}
	}
}

// FuzzEditPayload thins arbitrary commands with small limits: the result
// is always valid JSON, and unless it says it is cut, the hooks read the
// same tool, path, patch paths and folder from it as from the whole.
func FuzzEditPayload(f *testing.F) {
	f.Add("*** Begin Patch\n*** Update File: a\n+some content line\n*** Add File: b\n+x\n*** End Patch\n", "apply_patch")
	f.Add("cd src; apply_patch <<'EOF'\n*** Begin Patch\n\t*** Delete File: x\n*** End Patch\nEOF\n", "Bash")
	f.Add("\u2003*** Begin Patch\r\n*** Add File: \"q\\\u000b\n*** End Patch", "apply_patch")
	f.Fuzz(func(t *testing.T, command, tool string) {
		checkThinned(t, tool, command)
	})
}

// An edit whose input does not arrive whole within the budget is refused,
// saying why, while another agent holds an exclusive reservation; with
// none it passes. A Read whose input stalls passes either way.
func TestServeRefusesUnreadEdit(t *testing.T) {
	root, repo := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(root, "alice", "inbox"), filepath.Join(repo, ".git")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tree, err := fsutil.OpenOrCreate(root)
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	ctx := context.Background()
	if _, err := reserve.Reserve(ctx, tree, reserve.Request{Agent: "bob", Repo: reserve.Where{Top: repo}, Patterns: []string{"src/**"}, TTL: time.Hour}, time.Now()); err != nil {
		t.Fatal(err)
	}
	serve := func(event, tool string) string {
		start := `{"session_id":"s1","cwd":` + string(marshal(t, repo)) + `,"tool_name":"` + tool + `","tool_input":{"content":"` + strings.Repeat("x", 2<<20)
		s := &stallAfter{data: []byte(start), stop: make(chan struct{})}
		defer close(s.stop)
		var out, errOut bytes.Buffer
		Serve(event, Options{Root: root, Agent: "alice", HookTimeoutMS: "1000"}, nil, s, &out, &errOut)
		return out.String()
	}
	for _, tc := range []struct{ event, tool string }{{PreToolUse, "Write"}, {CodexPreToolUse, "apply_patch"}} {
		out := serve(tc.event, tc.tool)
		if !strings.Contains(out, `"permissionDecision":"deny"`) ||
			!strings.Contains(out, "st could not read this "+tc.tool+" call whole, its input did not arrive whole within the hook's time budget. Other agents hold reservations") {
			t.Errorf("%s of a stalled %s: %q", tc.event, tc.tool, out)
		}
	}
	if out := serve(PreToolUse, "Read"); out != "" {
		t.Errorf("a stalled Read: %q", out)
	}
	if _, err := reserve.Release(ctx, tree, "bob", reserve.Where{Top: repo}, []string{"src/**"}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if out := serve(PreToolUse, "Write"); out != "" {
		t.Errorf("a stalled Write with no reservation: %q", out)
	}
}

// A payload whose stdin stays open after the JSON object is read without
// waiting for the end.
func TestEditPayloadOpenStdin(t *testing.T) {
	for _, size := range []int{10, 2 << 20} {
		body := marshal(t, map[string]any{"tool_name": "Write", "tool_input": map[string]any{"file_path": "/p/a", "content": strings.Repeat("x", size)}})
		s := &stallAfter{data: body, stop: make(chan struct{})}
		got, cut := readEditPayload(s, later)
		close(s.stop)
		if p, _ := ParsePayload(got); cut != "" || p.Input().FilePath != "/p/a" {
			t.Errorf("%d bytes: read %.200s, cut %q", size, got, cut)
		}
	}
}

// An unread edit is refused, saying so, when even the reservations take
// longer to read than the budget leaves.
func TestUnreadEditSlowReservations(t *testing.T) {
	env, _ := testEnv(t)
	env.HookTimeoutMS = "300"
	env.payloadCut = "its input did not arrive whole within the hook's time budget"
	env.early = &earlyResult{} // as Serve sets it
	release, finished := make(chan struct{}), make(chan struct{})
	listReservations = func(t *fsutil.Tree, now time.Time) []reserve.Reservation {
		<-release
		defer close(finished)
		return nil
	}
	res := Run(CodexPreToolUse, []byte(`{"session_id":"s1","cwd":"/p","tool_name":"apply_patch"}`), env)
	close(release)
	<-finished // the hook, left running, has read listReservations
	listReservations = reserve.List
	running.Wait() // the hook left running writes in the test's folder
	if out := string(res.Stdout); !strings.Contains(out, `"permissionDecision":"deny"`) ||
		!strings.Contains(out, "st could not read the reservations in time either") {
		t.Errorf("stdout %q, want a refusal", out)
	}
}
