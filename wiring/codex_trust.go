package wiring

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/internal/sha256"
)

// Codex (0.169) runs a hook from hooks.json or config.toml only once the
// user trusted it: config.toml keeps [hooks.state."<key>"] with the
// trusted_hash of the hook's normalised definition. The key is
// positional ("<source file>:<event>:<group index>:<handler index>"), and
// an untrusted hook, or one whose hash changed ("modified"), is skipped
// without a word. This file recomputes both as Codex does
// (codex-rs/hooks/src/engine/discovery.rs and config/src/fingerprint.rs);
// the real-client tests in e2e/codex check them against `codex
// app-server` hooks/list.

// Codex trust verdicts.
const (
	TrustTrusted   = "trusted"
	TrustUntrusted = "untrusted"
	TrustModified  = "modified"
	TrustDisabled  = "disabled"
)

// CodexTrustAdvice is how to make Codex run st's hooks; install and
// doctor print it.
const CodexTrustAdvice = `Codex runs a hook only after you trust it, and skips untrusted or changed hooks without a word.
Trust st's hooks: start ` + "`codex`" + `, type /hooks and trust them (again after every reinstall that changes them).
For automation that already vets its hooks: codex exec --dangerously-bypass-hook-trust …`

// CodexHookTrust is Codex's view of one of our handlers.
type CodexHookTrust struct {
	Key     string
	Event   string
	Command string
	Hash    string // the hash Codex computes for the handler now
	Status  string // TrustTrusted, TrustUntrusted, TrustModified or TrustDisabled
}

// CodexTrust lists our handlers in the Codex hooks.json doc read from
// path, each with the trust Codex gives it under states.
func CodexTrust(path string, doc *jsonobj.Object, stBin string, states map[string]HookState) []CodexHookTrust {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	var out []CodexHookTrust
	byEvent := hooksObject(doc, false)
	if byEvent == nil {
		return nil
	}
	for _, event := range byEvent.Keys() {
		v, _ := byEvent.Get(event)
		for gi, g := range v.([]any) {
			group := g.(*jsonobj.Object)
			hv, _ := group.Get("hooks")
			for hi, h := range hv.([]any) {
				handler := h.(*jsonobj.Object)
				cmd, _ := handler.Get("command")
				s, _ := cmd.(string)
				if _, ours := OursEvent(s, stBin); !ours {
					continue
				}
				t := CodexHookTrust{Key: CodexHookKey(abs, event, gi, hi), Event: event, Command: s,
					Hash: CodexHookHash(event, group, handler)}
				t.Status = trustStatus(states[t.Key], t.Hash)
				out = append(out, t)
			}
		}
	}
	return out
}

// CodexTOMLTrust lists our handlers in a config.toml's [hooks] tables,
// each with the trust Codex gives it under states. Codex keys them by
// the config.toml's absolute path as it keys hooks.json's.
func CodexTOMLTrust(cfg *CodexConfig, stBin string, states map[string]HookState) []CodexHookTrust {
	abs, err := filepath.Abs(cfg.Path)
	if err != nil {
		abs = cfg.Path
	}
	var out []CodexHookTrust
	for _, h := range cfg.Handlers {
		if _, ours := OursEvent(h.Command, stBin); !ours {
			continue
		}
		t := CodexHookTrust{Key: CodexHookKey(abs, h.Event, h.Group, h.Index), Event: h.Event, Command: h.Command,
			Hash: CodexHookHash(h.Event, h.group, h.handler)}
		t.Status = trustStatus(states[t.Key], t.Hash)
		out = append(out, t)
	}
	return out
}

func trustStatus(st HookState, hash string) string {
	switch {
	case st.Enabled != nil && !*st.Enabled:
		return TrustDisabled
	case st.TrustedHash == "":
		return TrustUntrusted
	case st.TrustedHash != hash:
		return TrustModified
	}
	return TrustTrusted
}

// CodexHookKey is the key of Codex's trust state for a handler.
func CodexHookKey(source, event string, group, handler int) string {
	return fmt.Sprintf("%s:%s:%d:%d", source, snake(event), group, handler)
}

// snake turns an event name into Codex's label: SessionStart →
// session_start.
func snake(event string) string {
	var b strings.Builder
	for i, r := range event {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodexHookHash is the hash Codex trusts a command handler by: sha256 of
// the canonical JSON (sorted keys, compact) of the event label, the
// group's matcher and the one normalised handler (timeout always set,
// async always present, absent options left out).
func CodexHookHash(event string, group, handler *jsonobj.Object) string {
	h := map[string]any{"type": "command", "async": false, "timeout": codexTimeout(event, handler)}
	if v, ok := handler.Get("command"); ok {
		h["command"] = v
	}
	if v, ok := handler.Get("async"); ok {
		h["async"] = v == true
	}
	if v, ok := handler.Get("statusMessage"); ok && v != nil {
		h["statusMessage"] = v
	}
	identity := map[string]any{"event_name": snake(event), "hooks": []any{h}}
	if m, ok := group.Get("matcher"); ok && m != nil && event != "Stop" && event != "UserPromptSubmit" {
		identity["matcher"] = m
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // serde_json leaves <, > and & as they are
	if err := enc.Encode(identity); err != nil {
		return ""
	}
	sum := sha256.Sum256(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// codexTimeout is the timeout Codex normalises a handler to: 600 s by
// default and at least 1; SessionEnd 1 s by default, at most 3.
func codexTimeout(event string, handler *jsonobj.Object) int64 {
	var t int64 = -1
	if v, ok := handler.Get("timeout"); ok {
		if n, err := strconv.ParseInt(fmt.Sprint(v), 10, 64); err == nil {
			t = n
		}
	}
	if event == "SessionEnd" {
		if t < 0 {
			t = 1
		}
		return min(max(t, 1), 3)
	}
	if t < 0 {
		t = 600
	}
	return max(t, 1)
}
