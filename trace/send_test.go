package trace

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/storetest"
)

// storeOf writes alice's sessions, each a prompt and a tool call.
func storeOf(t *testing.T, sessions ...string) *fsutil.Tree {
	t.Helper()
	files := map[string]string{}
	for _, s := range sessions {
		evs := sample().Events
		for i := range evs {
			evs[i].Session = s
		}
		log, err := events.MarshalLog(evs)
		if err != nil {
			t.Fatal(err)
		}
		files["alice/events/"+s+".jsonl"] = string(log)
	}
	tree, _ := storetest.Open(t, files)
	return tree
}

func refs(sessions ...string) []Ref {
	var out []Ref
	for _, s := range sessions {
		out = append(out, Ref{Agent: "alice", Session: s})
	}
	return out
}

// A trace the collector refuses as too large does not hold back the
// others: each session goes in a request of its own, the refused one is
// parked with a note in export.log and never sent again, the others are
// sent and marked.
func TestOneUnsendableTraceDoesNotBlockTheRest(t *testing.T) {
	tree := storeOf(t, "s1", "s2", "s3")
	var sent []string
	tries := map[string]int{}
	send := func(_ context.Context, trs []Trace) error {
		if len(trs) != 1 {
			t.Errorf("a request holds %d traces, want one session's", len(trs))
		}
		for _, tr := range trs {
			tries[tr.Session]++
			if tr.Session == "s2" {
				return fmt.Errorf("%w: failed to send: 413 Request Entity Too Large", ErrTooLarge)
			}
		}
		for _, tr := range trs {
			sent = append(sent, tr.Session)
		}
		return nil
	}
	e := Export{Tree: tree, Sessions: refs("s1", "s2", "s3"), Now: time.Now, Send: send}
	res, err := e.Run(context.Background())
	if err != nil || res.Sent != 2 || res.Parked != 1 || strings.Join(sent, ",") != "s1,s3" {
		t.Fatalf("export: %+v, %v, sent %v", res, err, sent)
	}
	if !Sent(tree, "alice", "s1") || !Sent(tree, "alice", "s3") || !Parked(tree, "alice", "s2") || len(Spooled(tree, "alice")) != 0 {
		t.Errorf("marks: s1 %v, s3 %v, s2 parked %v, spool %d", Sent(tree, "alice", "s1"), Sent(tree, "alice", "s3"),
			Parked(tree, "alice", "s2"), len(Spooled(tree, "alice")))
	}
	log, _, _ := tree.ReadRegular("alice/traces/export.log")
	if !strings.Contains(string(log), "parked the trace of session s2") || !strings.Contains(string(log), "413") {
		t.Errorf("export.log does not say why s2 was parked: %q", log)
	}
	res, err = Export{Tree: tree, Agents: []string{"alice"}, Since: at(0).Add(-time.Hour), Sessions: refs("s2"), Now: time.Now, Send: send}.Run(context.Background())
	if err != nil || res.Sent+res.Parked != 0 || tries["s2"] != 1 {
		t.Errorf("the next export tried the parked trace again: %+v, %v, %d tries", res, err, tries["s2"])
	}
}

// A collector out of reach stops the export at the first failure: the
// traces not sent wait in the spool, and the next export sends them.
func TestCollectorDownSpoolsTheRest(t *testing.T) {
	tree := storeOf(t, "s1", "s2", "s3")
	calls := 0
	send := func(context.Context, []Trace) error { calls++; return errors.New("connection refused") }
	res, err := Export{Tree: tree, Sessions: refs("s1", "s2", "s3"), Now: time.Now, Send: send}.Run(context.Background())
	if err == nil || res.Spooled != 3 || calls != 1 || len(Spooled(tree, "alice")) != 3 {
		t.Fatalf("export to a collector that is down: %+v, %v, %d requests, %d spooled", res, err, calls, len(Spooled(tree, "alice")))
	}
}

// The spool keeps MaxSpool traces: spooling more drops the oldest, with
// a line in export.log for each.
func TestSpoolIsBounded(t *testing.T) {
	tree := storeOf(t)
	ctx := context.Background()
	base := time.Now().Add(-time.Hour)
	for i := range MaxSpool + 3 {
		tr := Trace{Agent: "alice", Session: fmt.Sprintf("s%03d", i), TraceID: traceID("alice", "x")}
		if err := Spool(ctx, tree, tr); err != nil {
			t.Fatal(err)
		}
		if err := tree.Touch(Dir("alice")+"/"+tr.Session+spoolExt, base.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	spooled := Spooled(tree, "alice")
	if len(spooled) != MaxSpool || spooled[0].Session != "s003" {
		t.Fatalf("the spool holds %d traces from %s, want the newest %d", len(spooled), spooled[0].Session, MaxSpool)
	}
	log, _, _ := tree.ReadRegular("alice/traces/export.log")
	if n := strings.Count(string(log), "dropped the spooled trace"); n != 3 || !strings.Contains(string(log), "s000") {
		t.Errorf("export.log names %d dropped traces, want s000-s002: %q", n, log)
	}
}

// Twenty sessions ending at once start twenty exports: one sends, the
// others leave their traces in the spool for it, and it sends them all
// before it ends, one request at a time.
func TestOneExportAtATime(t *testing.T) {
	const n = 20
	var sessions []string
	for i := range n {
		sessions = append(sessions, fmt.Sprintf("s%02d", i))
	}
	tree := storeOf(t, sessions...)
	var mu sync.Mutex
	active, most := 0, 0
	sent := map[string]int{}
	others := sync.WaitGroup{}
	others.Add(n - 1)
	first := sync.Once{}
	send := func(_ context.Context, trs []Trace) error {
		mu.Lock()
		active++
		most = max(most, active)
		mu.Unlock()
		first.Do(others.Wait) // the first request waits until every other export has run
		mu.Lock()
		defer mu.Unlock()
		active--
		for _, tr := range trs {
			sent[tr.Session]++
		}
		return nil
	}
	var wg sync.WaitGroup
	results := make([]Result, n)
	for i, s := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := Export{Tree: tree, Sessions: refs(s), Now: time.Now, Send: send}.Run(context.Background())
			if err != nil {
				t.Error(err)
			}
			results[i] = res
			if res.Deferred == 1 {
				others.Done()
			}
		}()
	}
	wg.Wait()
	deferred := 0
	for _, r := range results {
		deferred += r.Deferred
	}
	if most != 1 || deferred != n-1 || len(sent) != n {
		t.Errorf("%d exports sent at once, %d deferred, %d of %d sessions sent", most, deferred, len(sent), n)
	}
	for s, k := range sent {
		if k != 1 || !Sent(tree, "alice", s) {
			t.Errorf("%s sent %d times, marked %v", s, k, Sent(tree, "alice", s))
		}
	}
}

// A session that grows while its trace is being sent (Codex sends its
// session at each turn's end: the next turn's export finds this one
// running and spools the grown trace) is sent again, grown, before the
// running export ends: the older send does not drop the newer spool.
func TestASessionGrownMeanwhileIsSentGrown(t *testing.T) {
	tree := storeOf(t, "s1")
	var spans []int
	send := func(_ context.Context, trs []Trace) error {
		if len(spans) == 0 {
			grown := trs[0]
			grown.Spans = append(grown.Spans[:len(grown.Spans):len(grown.Spans)], Span{ID: "ffffffffffffffff", Name: "turn 2"})
			if err := Spool(context.Background(), tree, grown); err != nil {
				t.Fatal(err)
			}
		}
		spans = append(spans, len(trs[0].Spans))
		return nil
	}
	res, err := Export{Tree: tree, Sessions: []Ref{{Agent: "alice", Session: "s1", Again: true}}, Now: time.Now, Send: send}.Run(context.Background())
	if err != nil || len(spans) != 2 || spans[1] != spans[0]+1 || res.Sent != 2 || len(Spooled(tree, "alice")) != 0 {
		t.Errorf("sent %v spans (%+v, %v), %d left spooled; want the session, then the grown one", spans, res, err, len(Spooled(tree, "alice")))
	}
}
