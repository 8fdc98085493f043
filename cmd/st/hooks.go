package main

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/internal/sterr"
)

// hooksCmd prints, installs, removes and checks the hook wiring.
type hooksCmd struct {
	Path      hooksPathCmd      `cmd:"" help:"print the hook commands and the config to install them" extra:"unknown flag: %s"`
	Install   hooksInstallCmd   `cmd:"" help:"merge st's hooks into a settings file"`
	Uninstall hooksUninstallCmd `cmd:"" help:"remove st's hooks from a settings file"`
	Doctor    hooksDoctorCmd    `cmd:"" help:"check and fire the installed hooks"`
}

func init() {
	// Upstream: no sub → usage rc 1; unknown sub → unprefixed
	// "unknown subcommand: X" + usage, rc 1 (st-compat.md §6.17).
	groups["hooks"] = group{
		usage:       hooksUsage,
		helpWords:   []string{"-h", "--help"},
		noVerbCode:  exitError,
		unknown:     func(_ *app, v string) string { return fmt.Sprintf("unknown subcommand: %s\n", v) },
		unknownCode: exitError,
	}
}

func hooksUsage(a *app) string {
	return named(`usage: {NAME} hooks path [--for claude-code|codex|pi] [--json]
       {NAME} hooks install [--for claude-code|codex] [--scope user|project|local]
                      [--settings FILE] [--dry-run] [--all]
       {NAME} hooks uninstall [--for claude-code|codex] [--scope user|project|local]
                      [--settings FILE] [--dry-run]
       {NAME} hooks install|uninstall --for git
       {NAME} hooks doctor [--settings FILE]

  Print where st's agent-integration hook scripts live and the exact
  config to install them. READ-ONLY: prints only, modifies nothing, never
  auto-installs. --for selects the runtime family (default claude-code).
  --json emits a machine-readable form (for tools like convoy doctor).

  install merges st's hooks (`+"`{NAME} hook <event>`"+`, with this binary's
  absolute path) into a settings file, keeping every other key and hook,
  with a backup of the previous file in <file>.st-backup; running it
  again changes nothing. uninstall removes exactly st's hooks. Scopes
  (claude-code): user ~/.claude/settings.json, project
  .claude/settings.json, local .claude/settings.local.json (default);
  codex: user ~/.codex/hooks.json (default), project .codex/hooks.json.
  --dry-run prints the resulting file instead of writing it. --all
  (claude-code) wires every st hook: prompts, subagents, tool calls,
  notifications, stop, session end and stop-failure --retry; without it
  an install stays minimal.

  install --for git writes the reservation guard as the pre-commit
  hook of the git repository here (the hook already there is kept as
  pre-commit.st-chained and runs after the guard): a commit staging a
  path under another agent's exclusive reservation (`+"`{NAME} reserve`"+`) is
  refused, naming the holder; git commit --no-verify skips it.
  uninstall --for git removes the guard and puts the previous hook back.

  doctor lists st's hooks in the settings files that apply (or FILE) and
  any hook whose command is missing or not executable, fires each of
  st's hooks with a sample payload against a temporary root, and prints
  PASS or FAIL with its latency. It also checks that the real store and
  state folder can be written and that the agent's name is valid. Exit 1
  if anything failed, after a line counting the problems.
`, a.name)
}

func (c *hooksPathCmd) help(a *app) string      { return hooksUsage(a) }
func (c *hooksInstallCmd) help(a *app) string   { return hooksUsage(a) }
func (c *hooksUninstallCmd) help(a *app) string { return hooksUsage(a) }
func (c *hooksDoctorCmd) help(a *app) string    { return hooksUsage(a) }

type hooksPathCmd struct {
	For  *string `missing:"--for requires a value" predict:"claude-code,codex,pi" help:"claude-code, codex or pi"`
	JSON bool    `name:"json" help:"machine-readable output"`
}

func (c *hooksPathCmd) Run(a *app) error {
	family, err := checkFamily(c.For, hooks.Families)
	if err != nil {
		return err
	}
	info := hooks.PathInfo(family, a.selfPath())
	if c.JSON {
		data, err := jsonobj.MarshalIndent(info.JSON())
		if err != nil {
			return err
		}
		a.stdout.Write(append(data, '\n'))
		return nil
	}
	fmt.Fprint(a.stdout, info.Human(a.name))
	return nil
}

func checkFamily(v *string, allowed []string) (string, error) {
	if v == nil {
		return hooks.ClaudeCode, nil
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
