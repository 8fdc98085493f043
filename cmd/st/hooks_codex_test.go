package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/smalltalk-go/st/wiring"
)

// codextrust HOOKS.JSON CONFIG.TOML does what trusting st's hooks in
// Codex's /hooks does: it appends a [hooks.state."<key>"] table with the
// trusted_hash of each of st's handlers in HOOKS.JSON to CONFIG.TOML.
func cmdCodextrust(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: codextrust HOOKS.JSON CONFIG.TOML")
	}
	path := ts.MkAbs(args[0])
	s, err := wiring.ReadSettings(path, true)
	ts.Check(err)
	var b strings.Builder
	for _, t := range wiring.CodexTrust(path, s.Doc, "st", nil) {
		fmt.Fprintf(&b, "\n[hooks.state.%q]\ntrusted_hash = %q\n", t.Key, t.Hash)
	}
	f, err := os.OpenFile(ts.MkAbs(args[1]), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	ts.Check(err)
	_, err = f.WriteString(b.String())
	ts.Check(err)
	ts.Check(f.Close())
	ts.Logf("trusted %d hooks of %s", strings.Count(b.String(), "trusted_hash"), filepath.Base(path))
}
