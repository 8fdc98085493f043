package claudecode

import (
	"regexp"
	"slices"
	"testing"

	"github.com/smalltalk-go/st/wiring"
)

// knownEditTools are every tool name Claude Code has used for changing a
// file, in any release; the installed matcher names them all.
var knownEditTools = []string{"Edit", "Write", "MultiEdit", "NotebookEdit"}

// The file-editing tools the real client offers the model are exactly
// wiring.ClaudeEditTools, what the README and `st hooks doctor` name; each
// is in the installed PreToolUse matcher, so reservations cover it.
func TestEditToolsOffered(t *testing.T) {
	p := newProject(t, func(n int, r *Request) Reply { return Text("nothing to do") })
	// With tool search (the default) some tools, NotebookEdit among them,
	// are only named in the prompt and loaded on demand; off, every tool
	// is in the request's tools.
	p.extra = append(p.extra, "ENABLE_TOOL_SEARCH=false")
	r := p.claude("say hello", "--permission-mode", "acceptEdits")
	p.checkClean(r)
	reqs := p.mock.Messages()
	if len(reqs) == 0 {
		t.Fatal("the client sent no request")
	}
	var offered []string
	for _, name := range knownEditTools {
		if reqs[0].HasTool(name) {
			offered = append(offered, name)
		}
	}
	t.Logf("tools offered by Claude Code %s: %v", ClaudeVersion, reqs[0].Tools)
	if !slices.Equal(offered, wiring.ClaudeEditTools) {
		t.Errorf("the client offers the editing tools %v, wiring.ClaudeEditTools (README, doctor) says %v", offered, wiring.ClaudeEditTools)
	}
	matcher := regexp.MustCompile("^(?:" + wiring.PreToolUseMatcher + ")$")
	for _, name := range offered {
		if !matcher.MatchString(name) {
			t.Errorf("the PreToolUse matcher %q leaves out %s", wiring.PreToolUseMatcher, name)
		}
	}
}
