package hooks

import (
	"bytes"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
)

// Log rotation of context/.flush-errors.log (st-compat.md §3.11).
const (
	logMax  = 102400
	logKeep = 51200
)

const (
	defaultPrecompactTimeout = 5 * time.Second
	defaultFreshS            = 300
	markerPrefix             = "> pre-compact "
)

// Stub returns the now.md pre-compact writes when the model left none,
// stamped at now; it ends in "\n\n" exactly as upstream's.
func Stub(now time.Time) string {
	return "# now — pre-compact stub — " + isoSecond(now) + `

PreCompact fired without a recent flush from the model. Boot-rehydrate
should treat this as "no fresh state captured" and reconstruct from
git status, recent commits, and open inbox items.

If you see this after a restart: your last known-good working-state
was NOT captured before compaction. That's a discipline miss (the
base-persona rule is to flush ` + "`st context write`" + ` at each
meaningful state change), not a hook bug. Reconstruct and flush
proactively going forward.

`
}

// Marker is the line pre-compact puts on top of a stale non-empty now.md.
func Marker(now time.Time) string {
	return markerPrefix + isoSecond(now) + ": compaction fired without a recent flush; the state below may be stale."
}

// precompactDeadline parses ST_PRECOMPACT_TIMEOUT_S: positive seconds,
// fraction allowed; anything else is the 5 s default.
func precompactDeadline(v string) time.Duration {
	s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(s > 0) || s > 1e6 {
		return defaultPrecompactTimeout
	}
	return time.Duration(s * float64(time.Second))
}

// freshWindow parses ST_PRECOMPACT_FRESH_S (seconds, default 300).
func freshWindow(v string) float64 {
	s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || s < 0 {
		return defaultFreshS
	}
	return s
}

// runPreCompact makes sure now.md holds some state before a compaction.
// It prints nothing and always exits 0; its faults go to the log.
func runPreCompact(opt Options) Result {
	if opt.Agent == "" {
		return Result{}
	}
	t, err := fsutil.OpenOrCreate(opt.Root)
	if err != nil {
		return Result{}
	}
	defer t.Close()
	ctxDir := opt.Agent + "/context"
	if err := t.MkdirAll(ctxDir); err != nil {
		return Result{}
	}
	logPath := ctxDir + "/.flush-errors.log"
	if len(opt.Notices) > 0 {
		_ = t.Append(logPath, opt.Notices) // best effort: the pre-compact log is diagnostics only
	}
	now := opt.Now()
	if write := planFlush(t, opt, now); write != nil {
		_ = t.Append(logPath, nil) // the log exists whenever a write is attempted
		done := make(chan error, 1)
		go func() {
			if opt.TestDelay > 0 {
				time.Sleep(opt.TestDelay)
			}
			done <- write()
		}()
		deadline := precompactDeadline(opt.PrecompactTimeoutS)
		// The hook's own deadline comes first when it is nearer: leave a
		// fifth of what remains to log the timeout and the event line.
		if !opt.deadline.IsZero() {
			if rest := time.Until(opt.deadline) * 4 / 5; rest < deadline {
				deadline = max(rest, 0).Round(time.Millisecond)
			}
		}
		timer := time.NewTimer(deadline)
		select {
		case err := <-done:
			if err != nil {
				_ = t.Append(logPath, []byte(errLine(err))) // best effort: the pre-compact log is diagnostics only
			}
		case <-timer.C:
			secs := strconv.FormatFloat(deadline.Seconds(), 'f', -1, 64)
			_ = t.Append(logPath, []byte(fmt.Sprintf("%s pre-compact: timed out after %ss; skipping flush\n", isoSecond(opt.Now()), secs))) // best effort: the pre-compact log is diagnostics only
		}
		timer.Stop()
	}
	rotateLog(t, logPath)
	return Result{}
}

// planFlush decides what now.md needs and returns the write to run, or
// nil when a recent flush means nothing is to be done.
func planFlush(t *fsutil.Tree, opt Options, now time.Time) func() error {
	rel := agentctx.NowPath(opt.Agent)
	// now.md is read through the confined tree: a symlink, FIFO or
	// folder there reads as absent and is replaced by the stub. A file
	// too big to rewrite is left alone.
	// A zero-length read checks the file and gives its size first.
	_, fi, statErr := t.ReadRange(rel, 0, 0)
	if statErr == nil && fi.Size() > MaxFlushBytes {
		return func() error {
			return fmt.Errorf("pre-compact: %s is %d bytes, more than %d; not flushed", rel, fi.Size(), MaxFlushBytes)
		}
	}
	var data []byte
	if statErr == nil {
		data, fi, statErr = t.ReadRange(rel, 0, MaxFlushBytes)
	}
	if len(bytes.Trim(data, " \t\n\v\f\r")) == 0 {
		return func() error {
			if err := layout.EnsureAgent(opt.Root, opt.Agent); err != nil {
				return err
			}
			_, err := agentctx.WriteNow(t, opt.Agent, []byte(Stub(now)+stubDigest(t, opt.Agent, fi, statErr)))
			return err
		}
	}
	age := now.Sub(fi.ModTime()).Seconds()
	if age < freshWindow(opt.PrecompactFreshS) {
		return nil
	}
	return func() error {
		body := data
		if bytes.HasPrefix(body, []byte(markerPrefix)) {
			if i := bytes.IndexByte(body, '\n'); i >= 0 {
				body = body[i+1:]
			} else {
				body = nil
			}
		}
		out := append([]byte(Marker(now)+"\n"+markerDigest(t, opt.Agent, fi.ModTime())), stripDigest(body)...)
		if err := t.WriteAtomic(rel, out); err != nil {
			return err
		}
		return t.Touch(rel, fi.ModTime())
	}
}

// MaxFlushBytes is the biggest now.md pre-compact rewrites (it reads the
// whole file to put its marker on top). A hook shows the model at most
// its context budget of now.md, so a bigger file is state nobody reads.
const MaxFlushBytes = 8 << 20

// rotateLog keeps the last logKeep bytes of a log grown past logMax.
func rotateLog(t *fsutil.Tree, rel string) {
	fi, err := t.Stat(rel)
	if err != nil || fi.Size() <= logMax {
		return
	}
	data, _, err := t.ReadTail(rel, logKeep)
	if err != nil {
		return
	}
	_ = t.WriteAtomic(rel, data) // best effort: the hook fails open
}

// The pre-compact digest: below the stub or the marker,
// pre-compact adds what the event log shows since now.md was last
// written (files edited, last commands, failures). The stub text stays
// intact at the top.

// digestHead starts the digest section (Digest's title).
const digestHead = "## Activity since now.md was last written"

// stubDigest is the section added after the stub: since the blank
// now.md's mtime, or from the latest session log when there is none.
func stubDigest(t *fsutil.Tree, agent string, fi fs.FileInfo, statErr error) string {
	var since time.Time
	if statErr == nil {
		since = fi.ModTime()
	}
	return DigestFor(t, agent, since)
}

// markerDigest is the section put right below the marker line, quoted so
// that it reads as part of the marker and the next pre-compact can find
// and replace it (digests never stack).
func markerDigest(t *fsutil.Tree, agent string, since time.Time) string {
	d := DigestFor(t, agent, since)
	if d == "" {
		return ""
	}
	var b strings.Builder
	b.WriteString(">\n")
	for _, line := range strings.Split(strings.TrimSuffix(d, "\n"), "\n") {
		if line == "" {
			b.WriteString(">\n")
		} else {
			b.WriteString("> " + line + "\n")
		}
	}
	b.WriteString("\n")
	return b.String()
}

// stripDigest removes a quoted digest left by an earlier pre-compact at
// the top of body (the marker line already removed).
func stripDigest(body []byte) []byte {
	if !bytes.HasPrefix(body, []byte(">\n> "+digestHead)) {
		return body
	}
	for len(body) > 0 && body[0] == '>' {
		i := bytes.IndexByte(body, '\n')
		if i < 0 {
			return nil
		}
		body = body[i+1:]
	}
	if len(body) > 0 && body[0] == '\n' {
		body = body[1:]
	}
	return body
}
