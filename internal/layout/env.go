package layout

import (
	"fmt"
	"io"
	"os/user"
	"path/filepath"

	"github.com/smalltalk-go/st/internal/sterr"
)

// Env resolves everything st takes from the environment. Notices about
// legacy variables go to Notices once per variable (nil discards them).
type Env struct {
	lookup  func(string) (string, bool)
	Notices io.Writer
	noticed map[string]bool
}

// NewEnv returns a resolver over lookup (os.LookupEnv in production).
// ST_AGENT and ST_ROOT, when unset or empty, take the value a client's
// plugin option gave (PluginOptionVars): the environment's own value wins.
func NewEnv(lookup func(string) (string, bool), notices io.Writer) *Env {
	return &Env{lookup: withPluginOptions(lookup), Notices: notices, noticed: map[string]bool{}}
}

// PluginOptionVars returns the variables through which the st plugins pass
// the agent and the store their user set as an option, by the variable
// st reads: ST_PLUGIN_* where the plugin names the variable itself (its
// MCP server's environment, Gemini CLI's extension settings), and
// CLAUDE_PLUGIN_OPTION_* as Claude Code exports its plugin options to
// hooks. A switch: a package-level map is built at every st start.
func PluginOptionVars(key string) []string {
	switch key {
	case "ST_AGENT":
		return []string{"ST_PLUGIN_AGENT", "CLAUDE_PLUGIN_OPTION_AGENT"}
	case "ST_ROOT":
		return []string{"ST_PLUGIN_ROOT", "CLAUDE_PLUGIN_OPTION_ROOT"}
	}
	return nil
}

func withPluginOptions(lookup func(string) (string, bool)) func(string) (string, bool) {
	return func(key string) (string, bool) {
		v, ok := lookup(key)
		if v != "" {
			return v, ok
		}
		for _, alt := range PluginOptionVars(key) {
			if a, _ := lookup(alt); a != "" {
				return a, true
			}
		}
		return v, ok
	}
}

// Get returns the value of a variable, or "" when it is unset.
func (e *Env) Get(key string) string {
	v, _ := e.lookup(key)
	return v
}

// Lookup returns the value of a variable and whether it is set.
func (e *Env) Lookup(key string) (string, bool) { return e.lookup(key) }

func (e *Env) notice(key, successor string) {
	if e.noticed[key] || e.Notices == nil {
		return
	}
	e.noticed[key] = true
	fmt.Fprintf(e.Notices, "[smalltalk] honoring %s — migrate to %s when convenient\n", key, successor)
}

// Home follows Node: unset HOME means the account's home folder, an
// empty HOME makes the defaults relative paths.
func (e *Env) Home() string {
	if h, ok := e.lookup("HOME"); ok {
		return h
	}
	u, err := user.Current()
	if err != nil {
		return ""
	}
	return u.HomeDir
}

// Root returns the store root: ST_ROOT, then COORD_ROOT (with a notice),
// then $HOME/.local/state/smalltalk. It is used verbatim.
func (e *Env) Root() string {
	if r := e.Get("ST_ROOT"); r != "" {
		return r
	}
	if r := e.Get("COORD_ROOT"); r != "" {
		e.notice("COORD_ROOT", "ST_ROOT")
		return r
	}
	return filepath.Join(e.Home(), ".local", "state", "smalltalk")
}

// ConfigDir returns $ST_CONFIG or $HOME/.config/smalltalk.
func (e *Env) ConfigDir() string {
	if c := e.Get("ST_CONFIG"); c != "" {
		return c
	}
	return filepath.Join(e.Home(), ".config", "smalltalk")
}

// AgentName returns the acting agent from ST_AGENT, then ST_IDENTITY and
// COORD_IDENTITY (each with a notice), unvalidated. With none set it
// returns ErrIdentityRequired.
func (e *Env) AgentName() (string, error) {
	if a := e.Get("ST_AGENT"); a != "" {
		return a, nil
	}
	for _, key := range []string{"ST_IDENTITY", "COORD_IDENTITY"} {
		if a := e.Get(key); a != "" {
			e.notice(key, "ST_AGENT")
			return a, nil
		}
	}
	return "", sterr.ErrIdentityRequired
}
