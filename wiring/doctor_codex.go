package wiring

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// codexCheck gathers what the doctor learns about Codex across files:
// where each st event is wired, and whether any hook needs trusting.
type codexCheck struct {
	states     map[string]HookState
	wired      map[string][]string // Codex event → files wiring st's hook for it
	needsTrust bool
	skipped    map[string]bool // skipKey of each st hook Codex will not run
}

// skipKey names one hook for skipped.
func skipKey(event, command string) string { return event + "\x00" + command }

// skips reports whether Codex will not run the hook (untrusted, changed
// or disabled), so a fired run of it must not read as a PASS.
func (c *codexCheck) skips(event, command string) bool { return c.skipped[skipKey(event, command)] }

func newCodexCheck(codexHome string) *codexCheck {
	c := &codexCheck{states: map[string]HookState{}, wired: map[string][]string{}, skipped: map[string]bool{}}
	if codexHome != "" {
		if cfg, err := ReadCodexConfig(filepath.Join(codexHome, "config.toml")); err == nil {
			c.states = cfg.States
		}
	}
	return c
}

// verdict reports one hook's trust, failing the ones Codex skips.
func (c *codexCheck) verdict(t CodexHookTrust, fail func(string, ...any), w io.Writer) {
	if t.Status != TrustTrusted {
		c.skipped[skipKey(t.Event, t.Command)] = true
	}
	switch t.Status {
	case TrustTrusted:
		fmt.Fprintf(w, "  ok    %s: trusted by Codex\n", t.Event)
	case TrustUntrusted:
		c.needsTrust = true
		fail("%s: %s: not trusted by Codex, which skips it silently (%s)", t.Event, t.Command, t.Key)
	case TrustModified:
		c.needsTrust = true
		fail("%s: %s: changed since Codex trusted it (modified), so Codex skips it silently (%s)", t.Event, t.Command, t.Key)
	case TrustDisabled:
		fail("%s: %s: disabled in Codex (enable it in /hooks) (%s)", t.Event, t.Command, t.Key)
	}
}

// trust reports Codex's trust for our handlers in a Codex hooks.json and
// returns whether any of them will not run.
func (c *codexCheck) trust(path string, doc *jsonobj.Object, stBin string, fail func(string, ...any), w io.Writer) {
	for _, t := range CodexTrust(path, doc, stBin, c.states) {
		c.wired[t.Event] = append(c.wired[t.Event], path)
		c.verdict(t, fail, w)
	}
}

// tomlHooks lists st's hooks in a Codex config.toml's [hooks] tables
// with the trust Codex gives each, and fails a file Codex cannot parse.
func (c *codexCheck) tomlHooks(path, stBin string, fail func(string, ...any), w io.Writer) []Handler {
	cfg, err := ReadCodexConfig(path)
	var te *TOMLError
	if errors.As(err, &te) {
		fail("%v: Codex cannot parse this file and will not start; fix it there%s", err, duplicateAdvice(te))
		return nil
	}
	if err != nil {
		fail("%s: %v", path, err)
		return nil
	}
	if !cfg.Exists {
		return nil
	}
	var ours []Handler
	for _, t := range CodexTOMLTrust(cfg, stBin, c.states) {
		if len(ours) == 0 {
			fmt.Fprintf(w, "# %s\n", path)
		}
		fmt.Fprintf(w, "  st    %s: %s\n", t.Event, t.Command)
		c.wired[t.Event] = append(c.wired[t.Event], path)
		c.verdict(t, fail, w)
		ours = append(ours, Handler{Event: t.Event, Command: t.Command})
	}
	return ours
}

// duplicateAdvice is how to repair a config.toml whose st MCP table is
// there twice (the old README appended it on every run).
func duplicateAdvice(te *TOMLError) string {
	if te.Table == "mcp_servers.st" && strings.Contains(te.Msg, "already exists") {
		return " (`st init --for codex` keeps one [mcp_servers.st] table)"
	}
	return ""
}

// report fails every event st is wired for more than once and prints how
// to trust the hooks when some need it.
func (c *codexCheck) report(fail func(string, ...any), w io.Writer) {
	events := make([]string, 0, len(c.wired))
	for e := range c.wired {
		events = append(events, e)
	}
	sort.Strings(events)
	for _, e := range events {
		if files := c.wired[e]; len(files) > 1 {
			fail("Codex %s: st's hook is wired %d times (%s); Codex runs every one, so st runs %d times — keep one (%s)",
				e, len(files), strings.Join(files, ", "), len(files), keepOneAdvice)
		}
	}
	if c.needsTrust {
		fmt.Fprintln(w, CodexTrustAdvice)
	}
}

// keepOneAdvice says how to drop one of two Codex wirings.
const keepOneAdvice = "`st hooks uninstall --for codex [--scope project]` removes a hooks.json one; delete st's [[hooks.<Event>]] tables from config.toml by hand"

// OtherCodexWirings lists, for an install into path, the other files that
// wire st's Codex hooks too: the config.toml files and the other scope's
// hooks.json.
func OtherCodexWirings(path string, candidates []string, stBin string) []string {
	var out []string
	abs, _ := filepath.Abs(path)
	for _, f := range candidates {
		if fa, _ := filepath.Abs(f); fa == abs {
			continue
		}
		var found []Handler
		if strings.HasSuffix(f, ".toml") {
			if cfg, err := ReadCodexConfig(f); err == nil {
				found = cfg.handlers()
			}
		} else if s, err := ReadSettings(f, true); err == nil {
			found = AllHandlers(s.Doc)
		}
		for _, h := range found {
			if _, ok := OursEvent(h.Command, stBin); ok {
				out = append(out, f)
				break
			}
		}
	}
	return out
}
