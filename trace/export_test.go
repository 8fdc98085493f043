package trace

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/storetest"
)

// storeWith writes alice's session s1 (its events, a transcript) and
// returns the open store and the transcript's path.
func storeWith(t *testing.T) (*fsutil.Tree, string) {
	t.Helper()
	log, err := events.MarshalLog(sample().Events)
	if err != nil {
		t.Fatal(err)
	}
	tree, root := storetest.Open(t, map[string]string{
		"alice/events/s1.jsonl": string(log),
		"transcript/s1.jsonl":   `{"type":"assistant","timestamp":"2026-12-01T10:00:02.000Z","message":{"id":"m1","model":"claude-opus-5-5","usage":{"input_tokens":50000,"output_tokens":10}}}` + "\n",
	})
	return tree, filepath.Join(root, "transcript", "s1.jsonl")
}

// A collector that is down loses nothing: the export spools the trace;
// the next export sends it first, marks it sent and drops the spool; a
// third sends nothing again.
func TestExportSpoolsThenSends(t *testing.T) {
	tree, transcript := storeWith(t)
	var got [][]Trace
	up := false
	send := func(_ context.Context, trs []Trace) error {
		if !up {
			return errors.New("connection refused")
		}
		got = append(got, trs)
		return nil
	}
	now := func() time.Time { return at(40) }
	e := Export{Tree: tree, Agents: []string{"alice"}, Sessions: []Ref{{Agent: "alice", Session: "s1", Transcript: transcript}}, Now: now, Send: send}
	res, err := e.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "kept in the store") || res.Spooled != 1 {
		t.Fatalf("export to a collector that is down: %+v, %v", res, err)
	}
	if spooled := Spooled(tree, "alice"); len(spooled) != 1 || !reflectTraceEqual(spooled[0], Build(mustLoad(t, tree, transcript))) {
		t.Fatalf("the spool holds %d traces, want the session's whole trace", len(spooled))
	}
	up = true
	res, err = Export{Tree: tree, Agents: []string{"alice"}, Now: now, Send: send}.Run(context.Background())
	if err != nil || res.Sent != 1 || len(got) != 1 || len(got[0]) != 1 || got[0][0].Session != "s1" {
		t.Fatalf("the next export: %+v, %v, sent %v", res, err, got)
	}
	if tokens, _ := got[0][0].Spans[0].Attr("gen_ai.usage.input_tokens"); tokens.Int != 50000 {
		t.Errorf("the spooled trace lost its tokens: %+v", tokens)
	}
	if len(Spooled(tree, "alice")) != 0 || !Sent(tree, "alice", "s1") {
		t.Errorf("after sending: spool %v, marked %v", Spooled(tree, "alice"), Sent(tree, "alice", "s1"))
	}
	res, err = e.Run(context.Background())
	if err != nil || res.Sent != 0 || res.Skipped != 1 || len(got) != 1 {
		t.Errorf("a third export sent again: %+v, %v", res, err)
	}
}

// --since finds the sessions that ended (a SessionEnd line) and were not
// sent; an empty session sends nothing.
func TestExportSince(t *testing.T) {
	tree, _ := storeWith(t)
	var sent []string
	send := func(_ context.Context, trs []Trace) error {
		for _, tr := range trs {
			sent = append(sent, tr.Session)
		}
		return nil
	}
	e := Export{Tree: tree, Agents: []string{"alice", "bob"}, Since: at(0).Add(-time.Hour), Now: time.Now, Send: send}
	if res, err := e.Run(context.Background()); err != nil || res.Sent != 1 || strings.Join(sent, ",") != "s1" {
		t.Errorf("export --since: %+v, %v, sent %v", res, err, sent)
	}
}

func mustLoad(t *testing.T, tree *fsutil.Tree, transcript string) Session {
	s, err := Load(tree, "alice", "s1", transcript)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// reflectTraceEqual compares traces after a JSON round trip (times lose
// their monotonic part and location).
func reflectTraceEqual(a, b Trace) bool {
	if a.TraceID != b.TraceID || len(a.Spans) != len(b.Spans) {
		return false
	}
	for i := range a.Spans {
		x, y := a.Spans[i], b.Spans[i]
		if x.ID != y.ID || x.Parent != y.Parent || !x.Start.Equal(y.Start) || !x.End.Equal(y.End) || len(x.Attrs) != len(y.Attrs) {
			return false
		}
	}
	return true
}
