package hooks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/termsafe"
)

// Inbox arrivals in a Claude Code session. SessionStart lists the unread
// inbox (session-start --inbox) and starts the session's cursor; each
// Stop tells the model what arrived since the cursor and moves it, so a
// message is announced once, at the end of the turn in which it arrived,
// and not at all when the model got it as a channel block (channel.go).

// arrivalsShown bounds the lines of one announcement.
const arrivalsShown = 10

// StartArrivals sets a session's inbox cursor to at, the start of the
// session-start hook that listed the inbox.
func StartArrivals(ctx context.Context, t *fsutil.Tree, agent, session string, at time.Time) {
	if session == "" {
		return
	}
	_ = UpdateState(ctx, t, agent, session, func(s *State) bool { // best effort: the hook answers whether or not its state is saved
		s.InboxCheckedMS = at.UnixMilli()
		return true
	})
}

// Arrivals returns the announcement of the messages that reached the
// agent's inbox since the session's cursor and before now, and moves the
// cursor to now; "" when there are none. A session without a cursor
// (its SessionStart did not run st) only gets one: what was in the inbox
// before is not news.
func Arrivals(ctx context.Context, t *fsutil.Tree, agent, session string, now time.Time) string {
	if session == "" {
		return ""
	}
	nowMS := now.UnixMilli()
	var since int64
	var noted []string
	err := UpdateState(ctx, t, agent, session, func(s *State) bool {
		since, s.InboxCheckedMS = s.InboxCheckedMS, nowMS
		noted, s.ChannelNoted = s.ChannelNoted, channelPending(s.ChannelNoted, nowMS)
		return true
	})
	if err != nil || since == 0 || since >= nowMS {
		return ""
	}
	from := float64(since)
	items, err := inbox.Items(t, agent, inbox.Inbox, inbox.Filter{Since: &from})
	if err != nil {
		return ""
	}
	var fresh []inbox.Item
	for _, it := range items {
		// Later ones are the next Stop's news; noted ones the model got
		// as channel blocks (channel.go).
		if it.TS < float64(nowMS) && !slices.Contains(noted, it.Filename) {
			fresh = append(fresh, it)
		}
	}
	return arrivalsText(fresh, func(name string) bool { return inbox.NeedsAck(t, agent, inbox.Inbox, name) })
}

// arrivalsText is "## st inbox (<n> new since last check)" and one line
// per message, newest last, as codex-stop words it. A message that asks
// for an acknowledgement (needsAck) says so on its line: the agent is
// reminded once, when the message is announced.
func arrivalsText(items []inbox.Item, needsAck func(name string) bool) string {
	if len(items) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## st inbox (%d new since last check)\n", len(items))
	if n := len(items) - arrivalsShown; n > 0 {
		fmt.Fprintf(&b, "- … %d older (`st message ls`)\n", n)
		items = items[n:]
	}
	for _, it := range items {
		b.WriteString(itemLine(it, 0))
		if needsAck(it.Filename) {
			b.WriteString("  (asks for an acknowledgement: after reading it, `st message ack " + termsafe.Line(it.Filename) + "`)")
		}
		b.WriteByte('\n')
	}
	b.WriteString("Read them with st_msg_read or `st message read <filename>`.")
	return b.String()
}
