package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/wiring"
)

// codexTrustBefore is Codex's trust in our handlers of doc before a
// change, read from $CODEX_HOME/config.toml.
func (a *app) codexTrustBefore(path string, doc *jsonobj.Object) []wiring.CodexHookTrust {
	return wiring.CodexTrust(path, doc, a.selfPath(), a.codexStates())
}

func (a *app) codexStates() map[string]wiring.HookState {
	cfg, err := wiring.ReadCodexConfig(filepath.Join(a.codexHome(), "config.toml"))
	if err != nil {
		return nil
	}
	return cfg.States
}

// codexHooksFiles are the hooks.json files Codex loads: the user's,
// then each project folder's (codexProjectFiles).
func (a *app) codexHooksFiles() []string {
	return append([]string{filepath.Join(a.codexHome(), "hooks.json")}, codexProjectFiles("hooks.json")...)
}

// codexTOMLFiles are the config.toml files Codex loads, whose [hooks]
// tables can wire st's hooks too.
func (a *app) codexTOMLFiles() []string {
	return append([]string{filepath.Join(a.codexHome(), "config.toml")}, codexProjectFiles("config.toml")...)
}

// codexProjectFiles are .codex/<name> in every folder Codex loads one
// from (wiring.CodexProjectDirs): the working folder's as a relative
// path, always, and each parent's up to the project root when it exists.
func codexProjectFiles(name string) []string {
	cwd, err := os.Getwd()
	if err != nil {
		return []string{filepath.Join(".codex", name)}
	}
	var out []string
	dirs := wiring.CodexProjectDirs(cwd)
	for _, dir := range dirs[:len(dirs)-1] {
		if p := filepath.Join(dir, ".codex", name); exists(p) {
			out = append(out, p)
		}
	}
	return append(out, filepath.Join(".codex", name))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// codexNotes prints what a Codex install or uninstall means for Codex:
// a trusted hook whose command changed (Codex now skips it), the other
// files that wire st too (Codex would run st twice), and how to trust
// the hooks when any needs it.
func (a *app) codexNotes(path string, before []wiring.CodexHookTrust, doc *jsonobj.Object, install bool) {
	after := wiring.CodexTrust(path, doc, a.selfPath(), a.codexStates())
	now := map[string]wiring.CodexHookTrust{}
	for _, t := range after {
		now[t.Key] = t
	}
	for _, b := range before {
		if t, ok := now[b.Key]; ok && b.Status == wiring.TrustTrusted && t.Status != wiring.TrustTrusted {
			fmt.Fprintf(a.stdout, "WARNING: Codex trusted %s as `%s`; it now runs `%s`, which Codex skips until you trust it again.\n",
				b.Event, b.Command, t.Command)
		}
	}
	if !install {
		return
	}
	for _, f := range wiring.OtherCodexWirings(path, append(a.codexHooksFiles(), a.codexTOMLFiles()...), a.selfPath()) {
		fmt.Fprintf(a.stdout, "WARNING: %s wires st's hooks too; Codex runs both, so st would run twice. Remove st's hooks from one of them.\n", f)
	}
	trusted := len(after) > 0
	for _, t := range after {
		trusted = trusted && t.Status == wiring.TrustTrusted
	}
	if trusted {
		fmt.Fprintln(a.stdout, "Codex already trusts these hooks.")
		return
	}
	fmt.Fprintln(a.stdout, wiring.CodexTrustAdvice)
}
