package front

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// StaleInboxAfter is the age at which an inbox message counts as
// unaddressed for the tidy check.
const StaleInboxAfter = 10 * time.Minute

// ChannelMethod is the Claude Code channel notification, which carries
// tidy checks in every mode and inbox messages in channel mode.
const ChannelMethod = "notifications/claude/channel"

// Frame is the params of a channel notification.
type Frame struct {
	Content string `json:"content"`
	Meta    any    `json:"meta"`
}

// tidyMeta is a frame's meta for a tidy check.
type tidyMeta struct {
	From            string  `json:"from"`
	Kind            string  `json:"kind"`
	Identity        string  `json:"identity"`
	MessageFilename *string `json:"messageFilename"`
	ThreadFilename  *string `json:"threadFilename"`
}

// TidyFrame is the tidy check's frame for agent with body (Drift's).
func TidyFrame(agent, body string) Frame {
	return Frame{Content: body, Meta: tidyMeta{From: "st-system", Kind: "tidy-check", Identity: agent}}
}

// Notification is the line of a JSON-RPC notification, its params
// marshalled like JSON.stringify and then written as the SDK writes a
// request (its wire form by an encoder that escapes no HTML), newline
// included.
func Notification(method string, params any) ([]byte, error) {
	raw, err := jsstr.Marshal(params)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	err = enc.Encode(struct {
		JSONRPC string          `json:"jsonrpc"`
		Method  string          `json:"method"`
		Params  json.RawMessage `json:"params,omitempty"`
	}{"2.0", method, raw})
	return b.Bytes(), err
}

// Drift reports whether a canonical inbox file of agent's is older than
// StaleInboxAfter, with the tidy frame's text; ok is false when the check
// is skipped for the agent's status (busy, dnd or unknown).
func Drift(root, agent string, now time.Time) (drift bool, body string, ok bool) {
	t, err := fsutil.Open(root)
	if err != nil {
		return false, "", false
	}
	defer t.Close()
	switch status.Effective(t, agent, now) {
	case "busy", "dnd", "unknown":
		return false, "", false
	}
	rel := agent + "/" + inbox.Inbox
	names, _ := t.ReadDirNames(rel)
	names = inbox.WithoutTwins(t, agent, names)
	nowMs := float64(now.UnixNano()) / 1e6
	n, oldest := 0, 0.0
	for _, name := range names {
		if !message.IsCanonical(name) {
			continue
		}
		fi, err := t.Stat(rel + "/" + name)
		if err != nil {
			continue
		}
		age := nowMs - inbox.MtimeMs(fi)
		if age > float64(StaleInboxAfter.Milliseconds()) {
			n++
			oldest = max(oldest, age)
		}
	}
	if n == 0 {
		return false, "", true
	}
	noun := "messages"
	if n == 1 {
		noun = "message"
	}
	return true, fmt.Sprintf("Tidy check (drift detected):\n- inbox: %d unaddressed %s (oldest %s old)", n, noun, roundAge(oldest)), true
}

// roundAge formats a duration in ms like upstream's tidy check, rounding
// (Math.round) to s, m, h or d.
func roundAge(ms float64) string {
	round := func(v float64) int64 { return int64(math.Floor(v + 0.5)) }
	switch {
	case ms < 60_000:
		return fmt.Sprintf("%ds", round(ms/1000))
	case ms < 3_600_000:
		return fmt.Sprintf("%dm", round(ms/60_000))
	case ms < 86_400_000:
		return fmt.Sprintf("%dh", round(ms/3_600_000))
	}
	return fmt.Sprintf("%dd", round(ms/86_400_000))
}
