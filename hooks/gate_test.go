package hooks

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The subagent gate sends a subagent back at most once in a session,
// however many others it sent back in between (it remembered only the
// last 64, and sent the 65th-oldest back a second time).
func TestSubagentGateSendsBackOnce(t *testing.T) {
	gate, err := filepath.Abs(filepath.Join("testdata", "judge", "high.sh"))
	if err != nil {
		t.Fatal(err)
	}
	opt := judgeRig(t, "low.sh", "subagent_gate: "+gate+"\n")
	base, err := os.ReadFile(filepath.Join("..", "e2e", "claudecode", "testdata", "payloads", "SubagentStop.json"))
	if err != nil {
		t.Fatal(err)
	}
	stop := func(id string) string {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		m["agent_id"], m["agent_transcript_path"], m["transcript_path"] = id, "", ""
		payload, _ := json.Marshal(m)
		var stdout, stderr bytes.Buffer
		opt.Start = time.Now()
		if code := Serve(SubagentStop, opt, nil, bytes.NewReader(payload), &stdout, &stderr); code != 0 {
			t.Fatalf("subagent-stop: exit %d, stderr %q", code, stderr.String())
		}
		return stdout.String()
	}
	const n = 70
	for i := range n {
		if out := stop("sub" + strconv.Itoa(i)); !strings.Contains(out, gateMark) {
			t.Fatalf("subagent %d was not sent back the first time: %q", i, out)
		}
	}
	for _, i := range []int{0, 5, n - 1} {
		if out := stop("sub" + strconv.Itoa(i)); strings.Contains(out, gateMark) {
			t.Errorf("subagent %d (of %d sent back) was sent back a second time", i, n)
		}
	}
}
