package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/termsafe"
)

// followPoll is the backstop interval of --follow.
const followPoll = time.Second

type eventsShowCmd struct {
	Session *string `placeholder:"ID" missing:"--session requires a value" help:"only this session (default: every session)"`
	Since   *string `placeholder:"WHEN" missing:"--since requires a duration or a time" help:"only events at or after then: a duration ago (30m, 7d), a time (2026-12-02T10:00:00Z) or unix milliseconds (default: all)"`
	JSON    bool    `name:"json" help:"print the stored JSON lines unchanged"`
	Follow  bool    `help:"keep printing events as they are written"`
	Agent   string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose events (default: $ST_AGENT)"`
}

func (c *eventsShowCmd) Run(a *app) error {
	var f events.Filter
	if c.Session != nil {
		f.Session = *c.Session
	}
	if c.Since != nil {
		ms, err := duration.SinceMS(*c.Since, a.now())
		if err != nil {
			return err
		}
		f.Since = time.UnixMilli(ms)
	}
	id, err := a.resolve(c.Agent, layout.Strict)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(a.stdout)
	print := func(recs []events.Record) error {
		for _, r := range recs {
			// A bufio.Writer keeps its first error and Flush returns it.
			if c.JSON {
				_, _ = w.Write(r.Raw)
				_ = w.WriteByte('\n')
			} else {
				_, _ = io.WriteString(w, formatEvent(&r.Event, time.Local))
			}
		}
		return w.Flush()
	}
	if c.Follow {
		t, err := a.writableTree()
		if err != nil {
			return err
		}
		defer t.Close()
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return events.Follow(ctx, t, id, f, followPoll, print)
	}
	t := a.tree()
	if t == nil {
		return nil
	}
	defer t.Close()
	recs, err := events.Read(t, id, f)
	if err != nil {
		return err
	}
	return print(recs)
}

// formatEvent renders one event as a line for humans:
//
//	2026-07-21 10:00:02.000  3f2a9c1e  PostToolUse         Bash  go test ./...  bytes=5123 tool=1.2s  [140µs]
func formatEvent(e *events.Event, loc *time.Location) string {
	ts := e.TS
	if t, ok := e.Time(); ok {
		ts = t.In(loc).Format("2006-01-02 15:04:05.000")
	}
	sess := e.Session
	if sess == "" {
		sess = "-"
	}
	sess = events.Cap(sess, 8)
	var parts []string
	add := func(s string) {
		if s = clean(s); s != "" {
			parts = append(parts, s)
		}
	}
	kv := func(k, v string) {
		if v != "" {
			parts = append(parts, k+"="+clean(v))
		}
	}
	add(e.Tool)
	add(e.Path)
	add(e.Command)
	add(e.Type)
	if e.Title != "" {
		add(strconv.Quote(e.Title))
	}
	add(e.Message)
	kv("agent", e.AgentType)
	kv("error", e.Error)
	if e.Interrupt {
		add("(interrupted)")
	}
	if e.Bytes > 0 {
		kv("bytes", strconv.FormatInt(e.Bytes, 10))
	}
	if e.ToolMS > 0 {
		kv("tool", (time.Duration(e.ToolMS) * time.Millisecond).String())
	}
	if e.Attempt > 0 {
		kv("attempt", strconv.Itoa(e.Attempt))
	}
	kv("advice", e.Advice)
	parts = append(parts, "["+(time.Duration(e.HookUS)*time.Microsecond).String()+"]")
	return fmt.Sprintf("%s  %-8s  %-18s  %s\n", ts, sess, clean(e.Event), strings.Join(parts, "  "))
}

// clean keeps a field on one line: control characters become spaces
// (C1 ones and bytes that are not UTF-8 are escaped by termsafe).
func clean(s string) string {
	return termsafe.Line(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s))
}
