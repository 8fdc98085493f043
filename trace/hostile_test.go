package trace

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A FIFO named as the transcript is not read: the export goes on with
// the event log alone instead of waiting for a writer for ever.
func TestFIFOTranscriptDoesNotBlock(t *testing.T) {
	tree := storeOf(t, "s1")
	fifo := filepath.Join(t.TempDir(), "transcript.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := Export{Tree: tree, Sessions: []Ref{{Agent: "alice", Session: "s1", Transcript: fifo}}, Now: time.Now,
			Send: func(context.Context, []Trace) error { return nil }}.Run(context.Background())
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil || !Sent(tree, "alice", "s1") {
			t.Errorf("export with a FIFO transcript: %v, sent %v", err, Sent(tree, "alice", "s1"))
		}
	case <-time.After(time.Minute):
		// Unblock the reader so the test can end.
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			_ = f.Close()
		}
		t.Fatal("the export blocked on a FIFO named as the transcript")
	}
}

// A transcript of more model calls than a trace holds gives a trace of
// MaxSpans spans, the number dropped on the root, that the spool can
// keep and read back.
func TestHugeTranscriptIsBounded(t *testing.T) {
	tree := storeOf(t, "s1")
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	var b strings.Builder
	for i := range MaxSpans + 500 {
		fmt.Fprintf(&b, `{"type":"assistant","timestamp":"2026-12-01T10:00:02.000Z","message":{"id":"m%d","model":"claude-x","usage":{"input_tokens":1,"output_tokens":1}}}`+"\n", i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := Load(tree, "alice", "s1", path)
	if err != nil {
		t.Fatal(err)
	}
	tr := Build(s)
	if len(tr.Spans) != MaxSpans {
		t.Errorf("the trace has %d spans, want MaxSpans (%d)", len(tr.Spans), MaxSpans)
	}
	if dropped, ok := tr.Spans[0].Attr("st.trace.dropped_spans"); !ok || dropped.Int <= 0 {
		t.Errorf("the root does not say spans were dropped: %+v", dropped)
	}
	if err := Spool(context.Background(), tree, tr); err != nil || len(Spooled(tree, "alice")) != 1 {
		t.Errorf("the bounded trace was not spooled and read back: %v", err)
	}
}

// A trace too big to read back is never spooled: the error says so and
// export.log has a line for it.
func TestUnreadableTraceIsNotSpooled(t *testing.T) {
	tree := storeOf(t)
	tr := Trace{Agent: "alice", Session: "big", TraceID: traceID("alice", "big"),
		Spans: []Span{{ID: "1", Name: "invoke_agent alice", Attrs: []Attr{String("x", strings.Repeat("x", maxSpooled))}}}}
	if err := Spool(context.Background(), tree, tr); !errors.Is(err, ErrTooLarge) {
		t.Errorf("spooling a trace over the bound: %v", err)
	}
	if _, err := tree.Lstat(Dir("alice") + "/big" + spoolExt); err == nil {
		t.Error("a trace the spool cannot read back was written")
	}
	log, _, _ := tree.ReadRegular("alice/traces/export.log")
	if !strings.Contains(string(log), "dropped the trace of session big") {
		t.Errorf("export.log: %q", log)
	}
}
