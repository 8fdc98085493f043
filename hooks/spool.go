package hooks

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
)

// SpoolDir is an agent's prompt spool, relative to the root.
func SpoolDir(agent string) string { return agent + "/spool" }

// SpoolEnv is the context stored with a captured prompt.
type SpoolEnv struct {
	Host       string `json:"host"`
	TmuxPane   string `json:"tmux_pane"`
	Entrypoint string `json:"entrypoint"`
}

// spoolRecord is one captured prompt: the whole payload plus where it
// came from.
type spoolRecord struct {
	Payload    json.RawMessage `json:"payload"`
	Host       string          `json:"host"`
	TmuxPane   string          `json:"tmux_pane"`
	Entrypoint string          `json:"entrypoint"`
	CapturedAt int64           `json:"captured_at"`
}

// Spool stores a UserPromptSubmit payload as
// <agent>/spool/<unix-ms>-<rand6>.json, written as a dot-file and linked
// into place (fsutil.Deliver), and returns the name.
func Spool(t *fsutil.Tree, agent string, payload json.RawMessage, env SpoolEnv, now time.Time) (string, error) {
	if !json.Valid(payload) {
		payload, _ = json.Marshal(string(payload))
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(spoolRecord{Payload: payload, Host: env.Host, TmuxPane: env.TmuxPane, Entrypoint: env.Entrypoint, CapturedAt: now.UnixMilli()}) // cannot fail for these types
	if err := t.MkdirAll(SpoolDir(agent)); err != nil {
		return "", err
	}
	return t.Deliver(SpoolDir(agent), buf.Bytes(), func() string {
		name := message.NewName(now)
		return name[:len(name)-len(".md")] + ".json"
	})
}
