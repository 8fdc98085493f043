package main

import (
	"github.com/alecthomas/kong"
	"github.com/smalltalk-go/st/hooks"
)

// defaultClient is the client of --for when it is not given.
const defaultClient = hooks.ClaudeCode

// helpDefaults renders into help texts (as ${name}) the defaults the code
// applies, so that help cannot state one value while the code uses
// another; TestHelpDefaults checks every "(default …)" a help states.
// Built when kong is (a package-level map is built at every start).
func helpDefaults() kong.Vars {
	return kong.Vars{
		"default_client":      defaultClient,
		"default_scope":       defaultScope(hooks.ClaudeCode),
		"default_codex_scope": defaultScope(hooks.Codex),
	}
}
