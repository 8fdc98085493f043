package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/wiring"
)

// hooksCmd prints, installs, removes and checks the hook wiring.
type hooksCmd struct {
	Path      hooksPathCmd      `cmd:"" reads:"PATH" help:"print the hook commands and the config that wires them" extra:"unknown flag: %s"`
	Install   hooksInstallCmd   `cmd:"" reads:"HOME PATH" help:"add st's hooks to a Claude Code, Codex or Gemini CLI settings file"`
	Uninstall hooksUninstallCmd `cmd:"" reads:"HOME" help:"remove st's hooks from a settings file"`
	Doctor    hooksDoctorCmd    `cmd:"" reads:"ST_ROOT ST_AGENT HOME" help:"check the installed hooks, the store and the agent name, and run each hook once"`
}

// hooksGroup is how `st hooks` reacts to a missing or unknown sub-verb.
// Upstream: no sub → usage rc 1; unknown sub → unprefixed
// "unknown subcommand: X" + usage, rc 1 (st-compat.md §6.17).
var hooksGroup = group{
	noVerbCode:  exitError,
	unknown:     func(_ *app, v string) string { return fmt.Sprintf("unknown subcommand: %s\n", v) },
	unknownCode: exitError,
}

type hooksPathCmd struct {
	For  *string `missing:"--for requires a value" predict:"claude-code,codex,gemini,pi" help:"the client (default ${default_client})"`
	JSON bool    `name:"json" help:"print one JSON object"`
}

func (c *hooksPathCmd) Run(a *app) error {
	family, err := checkFamily(c.For, wiring.Families)
	if err != nil {
		return err
	}
	info := wiring.PathInfo(family, a.selfPath())
	if c.JSON {
		data, err := jsonobj.MarshalIndent(info.JSON())
		if err != nil {
			return err
		}
		_, err = a.stdout.Write(append(data, '\n'))
		return err
	}
	fmt.Fprint(a.stdout, info.Human(a.name))
	return nil
}

func checkFamily(v *string, allowed []string) (string, error) {
	if v == nil {
		return defaultClient, nil
	}
	for _, f := range allowed {
		if *v == f {
			return f, nil
		}
	}
	return "", sterr.Msg("--for must be one of %s, got: %s", strings.Join(allowed, "|"), *v)
}

// lookPath finds an executable named name on $PATH, as an absolute path.
func (a *app) lookPath(name string) (string, error) {
	for _, dir := range filepath.SplitList(a.env.Get("PATH")) {
		if dir == "" {
			dir = "."
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			return filepath.Abs(p)
		}
	}
	return "", fs.ErrNotExist
}

// Help is hooks' paragraph.
func (hooksCmd) Help() string {
	return `st plugs into Claude Code, Codex and Gemini CLI through hooks: the client runs
"{NAME} hook <event>" at session start, before a compaction, after a failure
and so on, and st feeds back the agent's restart context and new messages.
install writes that wiring into the client's settings; doctor checks it.
install --for git writes the reservation guard as this repository's
pre-commit hook (an existing hook is kept as pre-commit.st-chained and runs
after it, under its own name, as husky's hooks need); uninstall --for git
puts the previous hook back.`
}

func (hooksPathCmd) examples() []example {
	return []example{
		{"the commands and settings for Claude Code", "st hooks path"},
		{"the Codex wiring, for a script", "st hooks path --for codex --json"},
	}
}

func (hooksInstallCmd) examples() []example {
	return []example{
		{"wire every st hook into your Claude Code settings", "st hooks install --all"},
		{"preview the Codex wiring for this project", "st hooks install --for codex --scope project --dry-run"},
		{"guard this repository's commits against others' reservations", "st hooks install --for git"},
	}
}

func (hooksUninstallCmd) examples() []example {
	return []example{
		{"remove st's hooks from your Claude Code settings", "st hooks uninstall"},
		{"remove them from one project's shared settings", "st hooks uninstall --scope project"},
		{"remove the git guard and put the previous pre-commit hook back", "st hooks uninstall --for git"},
	}
}

func (hooksDoctorCmd) examples() []example {
	return []example{
		{"check the wiring in your settings", "st hooks doctor"},
		{"check a settings file elsewhere", "st hooks doctor --settings ../api/.claude/settings.json"},
	}
}
