package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/termsafe"
)

// Inbox arrivals in a Claude Code session. SessionStart lists the unread
// inbox (session-start --inbox) and starts the session's cursor; a Stop
// tells the model what arrived since the cursor and moves it, so a
// message is announced once, at the end of the turn in which it arrived,
// and not at all when the model got it as a channel block (channel.go).
// A Stop with nothing to tell leaves the cursor where it was.
//
// The cursor is the session's state's (InboxCheckedMS) once a Stop has
// moved it. Before that it is the session's start as its log's first
// line records it (sessionStartMS): the SessionStart line the hook
// appends anyway, so starting a session writes no state. Rewriting the
// state (a lock, a temp file, a rename over the old one) was a fifth of
// what session-start took beyond an empty program's start.

// arrivalsShown bounds the lines of one announcement.
const arrivalsShown = 10

// firstLineMax bounds the read of a session log's first line; a
// SessionStart line is a few hundred bytes, its cwd the longest part.
// A longer one leaves the session without a cursor from its log, which
// costs only a state write.
const firstLineMax = 4096

// StartArrivals starts a session's inbox cursor at at, the start of the
// session-start hook that listed the inbox. A new session's cursor is
// already there: its log begins with the line this hook appended. A
// session starting again (resume, compact) keeps its cursor when
// nothing reached the inbox since, as the later one would say the same;
// the earlier one also still tells a message named before at that
// arrives later (a sender's clock behind, a sync).
func StartArrivals(ctx context.Context, t *fsutil.Tree, agent, session string, at time.Time) {
	if session == "" {
		return
	}
	atMS := at.UnixMilli()
	if s, _ := peekState(t, agent, session); nothingNew(t, agent, cursor(t, agent, session, &s), nil, atMS) {
		return
	}
	_ = UpdateState(ctx, t, agent, session, func(s *State) bool { // best effort: the hook answers whether or not its state is saved
		s.InboxCheckedMS = atMS
		return true
	})
}

// cursor is the session's inbox cursor in unix ms: its state's, else the
// session's start from its log, else 0 (none yet).
func cursor(t *fsutil.Tree, agent, session string, s *State) int64 {
	if s.InboxCheckedMS != 0 {
		return s.InboxCheckedMS
	}
	return sessionStartMS(t, agent, session)
}

// sessionStartMS is when the session began, in unix ms, as its log's
// first line records it: a SessionStart at its time less the hook's own
// duration, so the start of the hook that listed the inbox. 0 when the
// log is missing or begins with anything else.
func sessionStartMS(t *fsutil.Tree, agent, session string) int64 {
	data, _, err := t.ReadRange(events.Path(agent, session), 0, firstLineMax)
	i := bytes.IndexByte(data, '\n')
	if err != nil || i < 0 {
		return 0
	}
	e, ok := events.Parse(data[:i])
	at, timed := e.Time()
	if !ok || !timed || e.Event != "SessionStart" || e.Session != session || e.HookUS < 0 {
		return 0
	}
	return at.UnixMilli() - (e.HookUS+999)/1000
}

// Arrivals returns the announcement of the messages that reached the
// agent's inbox since the session's cursor and before now, and moves the
// cursor to now; "" when there are none. A session without a cursor
// (its SessionStart did not run st) only gets one: what was in the inbox
// before is not news.
//
// Most Stops have nothing to tell: those read the state and list the
// inbox without the session's lock and write nothing (the lock and the
// state's rewrite were a third of such a Stop's own time). Leaving the
// cursor also tells a message whose name is older than the Stop but
// which reached the inbox after it (a sender's clock behind, a sync),
// which a moved cursor would have passed over.
func Arrivals(ctx context.Context, t *fsutil.Tree, agent, session string, now time.Time) string {
	if session == "" {
		return ""
	}
	nowMS := now.UnixMilli()
	s, _ := peekState(t, agent, session)
	since := cursor(t, agent, session, &s)
	if nothingNew(t, agent, since, s.ChannelNoted, nowMS) {
		return ""
	}
	var noted []string
	err := UpdateState(ctx, t, agent, session, func(s *State) bool {
		if s.InboxCheckedMS != 0 { // else the log's start, read above: a log's first line stays
			since = s.InboxCheckedMS
		}
		s.InboxCheckedMS = nowMS
		noted, s.ChannelNoted = s.ChannelNoted, channelPending(s.ChannelNoted, nowMS)
		return true
	})
	if err != nil || since == 0 || since >= nowMS {
		return ""
	}
	fresh, err := arrivedBetween(t, agent, since, nowMS, noted)
	if err != nil {
		return ""
	}
	return arrivalsText(fresh, func(name string) bool { return inbox.NeedsAck(t, agent, inbox.Inbox, name) })
}

// nothingNew reports whether moving the session's cursor from since to
// nowMS would change nothing: there is a cursor, at or before nowMS, no
// channel block noted to forget, and no message arrived between the two.
func nothingNew(t *fsutil.Tree, agent string, since int64, noted []string, nowMS int64) bool {
	if since == 0 || since > nowMS || len(channelPending(noted, nowMS)) != len(noted) {
		return false
	}
	fresh, err := arrivedBetween(t, agent, since, nowMS, noted)
	return errors.Is(err, fs.ErrNotExist) || err == nil && len(fresh) == 0 // no inbox yet: nothing arrived
}

// arrivedBetween lists the inbox messages named from since up to, not
// including, untilMS, less those noted (the model got them as channel
// blocks); later ones are the next Stop's news.
func arrivedBetween(t *fsutil.Tree, agent string, since, untilMS int64, noted []string) ([]inbox.Item, error) {
	from := float64(since)
	items, err := inbox.Items(t, agent, inbox.Inbox, inbox.Filter{Since: &from})
	if err != nil {
		return nil, err
	}
	var fresh []inbox.Item
	for _, it := range items {
		if it.TS < float64(untilMS) && !slices.Contains(noted, it.Filename) {
			fresh = append(fresh, it)
		}
	}
	return fresh, nil
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
