package dashboard

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The fleet of the scale target: 500 agents with 100 messages
// each (half in the inbox, half archived) and one 100 MB event log.
const (
	scaleAgents   = 500
	scaleMessages = 100
	scaleLogBytes = 100 << 20
)

var (
	bigFleetOnce sync.Once
	bigFleetDir  string
	bigFleetErr  error
	keptFleetDir string
)

// bigFleet builds the scale fixture once per test binary; TestMain
// removes it.
func bigFleet(tb testing.TB) string {
	tb.Helper()
	bigFleetOnce.Do(func() {
		// $ST_DASHBOARD_FLEET keeps a fixture across runs: built there
		// when missing, never removed.
		if dir := os.Getenv("ST_DASHBOARD_FLEET"); dir != "" {
			if _, err := os.Stat(filepath.Join(dir, scaleID(scaleAgents-1))); err != nil {
				bigFleetErr = buildFleet(dir, scaleAgents, scaleMessages, scaleLogBytes)
			}
			keptFleetDir = dir
			return
		}
		dir, err := os.MkdirTemp("", "st-dashboard-fleet-")
		if err != nil {
			bigFleetErr = err
			return
		}
		bigFleetDir = dir
		bigFleetErr = buildFleet(dir, scaleAgents, scaleMessages, scaleLogBytes)
	})
	if bigFleetErr != nil {
		tb.Fatal(bigFleetErr)
	}
	if keptFleetDir != "" {
		return keptFleetDir
	}
	return bigFleetDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bigFleetDir != "" {
		os.RemoveAll(bigFleetDir)
	}
	if stBin != "" {
		os.RemoveAll(filepath.Dir(stBin))
	}
	os.Exit(code)
}

// scaleID names agent i of a built fleet.
func scaleID(i int) string { return fmt.Sprintf("agent%03d", i) }

// buildFleet writes agents agents with msgs messages each, a now.md, a
// status, a short event log (every tenth agent waiting on a human), and
// gives the first agent a log of logBytes.
func buildFleet(root string, agents, msgs int, logBytes int64) error {
	base := time.Now().Add(-time.Hour)
	states := []string{"available", "busy", "away", "dnd", "offline"}
	for i := range agents {
		id := scaleID(i)
		dir := filepath.Join(root, id)
		for _, d := range []string{"inbox", "archive", "context", "events"} {
			if err := os.MkdirAll(filepath.Join(dir, d), 0o777); err != nil {
				return err
			}
		}
		for j := range msgs {
			folder := "inbox"
			if j%2 == 1 {
				folder = "archive"
			}
			name := fmt.Sprintf("%013d-%06d.md", base.UnixMilli()+int64(j)*1000, i*1000+j)
			body := fmt.Sprintf("---\nfrom: %s\nsubject: task %d for %s\n---\nPlease look at item %d.\n", scaleID((i+1)%agents), j, id, j)
			if err := os.WriteFile(filepath.Join(dir, folder, name), []byte(body), 0o666); err != nil {
				return err
			}
		}
		files := map[string]string{
			"status":         states[i%len(states)] + "\n",
			"context/now.md": fmt.Sprintf("# %s\n\nWorking on task %d.\nNext: review the parser.\n", id, i),
			"events/s1.jsonl": logLine(base, "SessionStart", "") + logLine(base.Add(time.Second), "PostToolUse", `,"tool":"Bash"`) +
				map[bool]string{true: logLine(base.Add(2*time.Second), "Notification", `,"type":"permission_prompt","title":"Bash"`), false: ""}[i%10 == 0],
		}
		for rel, content := range files {
			if err := os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o666); err != nil {
				return err
			}
		}
	}
	if agents == 0 || logBytes == 0 {
		return nil
	}
	return writeBigLog(filepath.Join(root, scaleID(0), "events", "big.jsonl"), base, logBytes)
}

// writeBigLog writes a session log of about size bytes: tool calls with
// a failure, a compaction and an API error retried now and then.
func writeBigLog(path string, start time.Time, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	var n int64
	for i := 0; n < size; i++ {
		at := start.Add(time.Duration(i) * 10 * time.Millisecond)
		var line string
		switch {
		case i%500 == 0:
			line = logLine(at, "PreCompact", `,"type":"auto"`)
		case i%97 == 0:
			line = logLine(at, "PostToolUseFailure", `,"tool":"Bash","command":"go test ./...","error":"exit status 1"`)
		case i%301 == 0:
			line = logLine(at, "StopFailure", `,"error":"rate_limit","attempt":1`)
		default:
			line = logLine(at, "PostToolUse", `,"tool":"Read","path":"/src/`+strings.Repeat("x", 40)+`.go","bytes":5123,"tool_ms":12`)
		}
		m, _ := w.WriteString(line)
		n += int64(m)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// The log was last written now: the newest of its agent's logs.
	return os.Chtimes(path, time.Now(), time.Now())
}
