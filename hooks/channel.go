package hooks

import (
	"slices"
	"strings"

	"github.com/smalltalk-go/st/internal/lazyre"
	"github.com/smalltalk-go/st/message"
)

// Channel pushes in a Claude Code session. In channel mode st's MCP
// server pushes every inbox arrival to the client; Claude Code hands it
// to the model as a <channel> block, as a prompt of its own (or, mid-turn,
// with the next tool result), and runs the UserPromptSubmit hook on that
// block either way. The client tells the server nothing when it takes a
// channel, and drops the pushes silently when one of its gates is off
// (feature flag, org policy, provider, --channels), so that prompt is the
// one proof st gets that the model has the message: user-prompt-submit
// notes its filename in the session's state, and Stop leaves the noted
// ones out of the arrivals it announces. Without the proof (no
// user-prompt-submit hook, a gate off) Stop announces as before: twice is
// better than never.

// channelNotedMax bounds the filenames a session's state keeps.
const channelNotedMax = 100

// channelTag is the opening tag Claude Code wraps a push in, at the
// start of a line: <channel source="st" from="bob" messageFilename="…" …>.
// Compiled on first use: a package-level regexp would cost every st start.
var channelTag = lazyre.Regexp{Expr: `(?m)^<channel source="[^"\n]*"[^>\n]*>`}

// tagAttr is one name="value" attribute of a tag.
var tagAttr = lazyre.Regexp{Expr: ` ([A-Za-z_][A-Za-z0-9_]*)="([^"\n]*)"`}

// ChannelDeliveries returns the inbox filenames that prompt carries as
// channel blocks addressed to agent (their identity attribute), in
// order, without repeats.
func ChannelDeliveries(prompt, agent string) []string {
	if !strings.Contains(prompt, "<channel source=") {
		return nil // most prompts; the regexp costs ~10 ns a byte
	}
	var names []string
	for _, tag := range channelTag.Get().FindAllString(prompt, -1) {
		var name, identity string
		for _, m := range tagAttr.Get().FindAllStringSubmatch(tag, -1) {
			switch m[1] {
			case "messageFilename":
				name = m[2]
			case "identity":
				identity = m[2]
			}
		}
		if identity == agent && message.IsDeliverable(name) && !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	return names
}

// noteChannel adds names to the session's noted channel deliveries,
// keeping the newest channelNotedMax; false when none is new.
func (s *State) noteChannel(names []string) bool {
	changed := false
	for _, n := range names {
		if !slices.Contains(s.ChannelNoted, n) {
			s.ChannelNoted = append(s.ChannelNoted, n)
			changed = true
		}
	}
	if over := len(s.ChannelNoted) - channelNotedMax; over > 0 {
		s.ChannelNoted = slices.Delete(s.ChannelNoted, 0, over)
	}
	return changed
}

// channelPending keeps the noted names a Stop after nowMS can still
// meet: canonical names stamped nowMS or later. Every other one was in
// this Stop's window or before it.
func channelPending(noted []string, nowMS int64) []string {
	var keep []string
	for _, n := range noted {
		if message.IsCanonical(n) && message.Timestamp(n) >= nowMS {
			keep = append(keep, n)
		}
	}
	return keep
}
