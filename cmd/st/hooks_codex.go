package main

import (
	"fmt"
	"path/filepath"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/jsonobj"
)

// codexTrustBefore is Codex's trust in our handlers of doc before a
// change, read from $CODEX_HOME/config.toml.
func (a *app) codexTrustBefore(path string, doc *jsonobj.Object) []hooks.CodexHookTrust {
	return hooks.CodexTrust(path, doc, a.selfPath(), a.codexStates())
}

func (a *app) codexStates() map[string]hooks.HookState {
	cfg, err := hooks.ReadCodexConfig(filepath.Join(a.codexHome(), "config.toml"))
	if err != nil {
		return nil
	}
	return cfg.States
}

// codexHooksFiles are both scopes' hooks.json (user, project).
func (a *app) codexHooksFiles() []string {
	return []string{filepath.Join(a.codexHome(), "hooks.json"), filepath.Join(".codex", "hooks.json")}
}

// codexTOMLFiles are both scopes' config.toml, whose [hooks] tables can
// wire st's hooks too.
func (a *app) codexTOMLFiles() []string {
	return []string{filepath.Join(a.codexHome(), "config.toml"), filepath.Join(".codex", "config.toml")}
}

// codexNotes prints what a Codex install or uninstall means for Codex:
// a trusted hook whose command changed (Codex now skips it), the other
// files that wire st too (Codex would run st twice), and how to trust
// the hooks when any needs it.
func (a *app) codexNotes(path string, before []hooks.CodexHookTrust, doc *jsonobj.Object, install bool) {
	after := hooks.CodexTrust(path, doc, a.selfPath(), a.codexStates())
	now := map[string]hooks.CodexHookTrust{}
	for _, t := range after {
		now[t.Key] = t
	}
	for _, b := range before {
		if t, ok := now[b.Key]; ok && b.Status == hooks.TrustTrusted && t.Status != hooks.TrustTrusted {
			fmt.Fprintf(a.stdout, "WARNING: Codex trusted %s as `%s`; it now runs `%s`, which Codex skips until you trust it again.\n",
				b.Event, b.Command, t.Command)
		}
	}
	if !install {
		return
	}
	for _, f := range hooks.OtherCodexWirings(path, append(a.codexHooksFiles(), a.codexTOMLFiles()...), a.selfPath()) {
		fmt.Fprintf(a.stdout, "WARNING: %s wires st's hooks too; Codex runs both, so st would run twice. Remove st's hooks from one of them.\n", f)
	}
	trusted := len(after) > 0
	for _, t := range after {
		trusted = trusted && t.Status == hooks.TrustTrusted
	}
	if trusted {
		fmt.Fprintln(a.stdout, "Codex already trusts these hooks.")
		return
	}
	fmt.Fprintln(a.stdout, hooks.CodexTrustAdvice)
}
