package mcp

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// tidyLoop runs the tidy check every TidyEvery (plain and channel mode):
// when the inbox starts holding unaddressed messages, one frame asks the
// agent to catch up. Ticks are skipped while the agent is busy, dnd or
// unknown, and do not count towards the transition.
func (s *server) tidyLoop(ctx context.Context) {
	tick := time.NewTicker(s.cfg.TidyEvery)
	defer tick.Stop()
	fired := false
	if h := s.cfg.Handover; h != nil && h.Tidy {
		fired = s.tidyCheck(ctx, fired) // the front's timer ran out: the check is due
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		fired = s.tidyCheck(ctx, fired)
	}
}

// tidyCheck runs one tidy check and sends its frame unless one was
// fired for the same drift; it returns the new fired.
func (s *server) tidyCheck(ctx context.Context, fired bool) bool {
	drift, body, ok := s.evaluateDrift()
	if !ok {
		return fired
	}
	if drift && !fired {
		err := s.sendFrame(ctx, frame{Content: body, Meta: tidyMeta{
			From: "st-system", Kind: "tidy-check", Identity: s.cfg.Agent,
		}})
		s.debugf("tidy check: drift (frame sent: %v)", err == nil)
	}
	return drift
}

// evaluateDrift reports whether a canonical inbox file is older than
// StaleInboxAfter, with the frame text; ok is false when the check is
// skipped for the agent's status.
func (s *server) evaluateDrift() (drift bool, body string, ok bool) {
	t, err := fsutil.Open(s.cfg.Root)
	if err != nil {
		return false, "", false
	}
	defer t.Close()
	now := s.cfg.Now()
	switch status.Effective(t, s.cfg.Agent, now) {
	case "busy", "dnd", "unknown":
		return false, "", false
	}
	rel := s.cfg.Agent + "/" + inbox.Inbox
	names, _ := t.ReadDirNames(rel)
	names = inbox.WithoutTwins(t, s.cfg.Agent, names)
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
