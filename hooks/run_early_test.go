package hooks

import (
	"testing"
	"time"
)

// An answer named after the deadline does not count, whether it is the
// answer itself or the fallback: the output must not depend on whether
// the hook or the deadline's timer is scheduled first.
func TestEarlyResultDropsLateAnswers(t *testing.T) {
	answer, fallback, fault := Result{Code: 1}, Result{Code: 2}, Result{Code: 3}
	for _, tc := range []struct {
		name     string
		deadline time.Duration // from now; 0: no deadline
		set, alt bool
		want     Result
	}{
		{"answer in time", time.Hour, true, false, answer},
		{"fallback in time", time.Hour, false, true, fallback},
		{"answer wins over fallback", time.Hour, true, true, answer},
		{"answer too late", -time.Millisecond, true, false, fault},
		{"fallback too late", -time.Millisecond, false, true, fault},
		{"no deadline", 0, true, false, answer},
		{"nothing named", time.Hour, false, false, fault},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &earlyResult{}
			if tc.deadline != 0 {
				e.deadline = time.Now().Add(tc.deadline)
			}
			if tc.alt {
				e.otherwise(fallback)
			}
			if tc.set {
				e.set(answer)
			}
			if got := e.or(fault); got.Code != tc.want.Code {
				t.Errorf("got exit %d, want %d", got.Code, tc.want.Code)
			}
		})
	}
}
