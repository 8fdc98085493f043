package mcp

import (
	"context"
	"time"

	"github.com/smalltalk-go/st/mcp/front"
)

// tidyLoop runs the tidy check every TidyEvery (plain and channel mode):
// when the inbox starts holding unaddressed messages, one frame asks the
// agent to catch up. Ticks are skipped while the agent is busy, dnd or
// unknown, and do not count towards the transition.
func (s *server) tidyLoop(ctx context.Context) {
	tick := time.NewTicker(s.cfg.TidyEvery)
	defer tick.Stop()
	fired := false
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		drift, body, ok := front.Drift(s.cfg.Root, s.cfg.Agent, s.cfg.Now())
		if !ok {
			continue
		}
		if drift && !fired {
			err := s.sendFrame(ctx, front.TidyFrame(s.cfg.Agent, body))
			s.debugf("tidy check: drift (frame sent: %v)", err == nil)
		}
		fired = drift
	}
}
