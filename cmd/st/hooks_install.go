package main

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/wiring"
)

type hooksInstallCmd struct {
	For      *string `missing:"--for requires a value" predict:"claude-code,codex,gemini,git" help:"the client (default ${default_client}); git: the reservation pre-commit guard of the repository here"`
	Scope    *string `missing:"--scope requires a value" predict:"user,project,local" help:"user: your own settings; project: the project's shared ones; local: the project's private ones (default ${default_scope}; for codex and gemini ${default_codex_scope})"`
	Settings *string `placeholder:"FILE" missing:"--settings requires a value" help:"this settings file instead of the scope's"`
	DryRun   bool    `name:"dry-run" help:"print the resulting file and change nothing"`
	All      bool    `help:"Claude Code: every st hook, not only the session-boundary ones"`
}

type hooksUninstallCmd hooksInstallCmd

// installFamilies are the clients install, uninstall and init take: the
// rows of wiring.Clients.
func installFamilies() []string { return wiring.ClientFamilies() }

func (c *hooksInstallCmd) Run(a *app) error {
	return a.changeSettings((*hooksInstallCmd)(c), true)
}

func (c *hooksUninstallCmd) Run(a *app) error {
	return a.changeSettings((*hooksInstallCmd)(c), false)
}

// changeSettings installs or uninstalls st's hooks in one settings file.
func (a *app) changeSettings(c *hooksInstallCmd, install bool) error {
	if c.For != nil && *c.For == gitFamily {
		return a.changeGitGuard(install, c.DryRun) // hooks_git.go
	}
	family, err := checkFamily(c.For, installFamilies())
	if err != nil {
		return err
	}
	path, err := a.settingsPath(family, c.Scope, c.Settings)
	if err != nil {
		return err
	}
	codex := family == hooks.Codex
	s, err := wiring.ReadSettings(path, codex)
	if err != nil {
		return sterr.Msg("%s", err.Error())
	}
	stBin := a.selfPath()
	var before []wiring.CodexHookTrust
	if codex {
		before = a.codexTrustBefore(path, s.Doc)
	}
	var verb string
	if install {
		entries := wiring.InstallEntries(family, c.All)
		if codex {
			wiring.InstallInPlace(s.Doc, entries, stBin)
		} else {
			wiring.Install(s.Doc, entries, stBin)
		}
		verb = fmt.Sprintf("installed %d st hooks into %s", len(entries), path)
	} else {
		uninstall := wiring.Uninstall
		if codex {
			uninstall = wiring.UninstallInPlace
		}
		n := uninstall(s.Doc, stBin)
		if n == 0 {
			fmt.Fprintf(a.stdout, "%s has no st hooks — no changes.\n", path)
			return nil
		}
		verb = fmt.Sprintf("removed %d st hooks from %s", n, path)
	}
	data, err := jsonobj.MarshalIndent(s.Doc)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if !install && !codex {
		if s.CreatedByUs() && !c.DryRun {
			if err := wiring.RemoveCreated(path); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s (st had created the file: removed it)\n", verb)
			return nil
		}
		data = s.Restored(data)
	}
	if c.DryRun {
		if _, err := a.stdout.Write(data); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "%s hooks: dry run — %s not changed\n", a.name, path)
		return nil
	}
	if s.Unchanged(data) {
		fmt.Fprintf(a.stdout, "%s already has st's hooks — no changes.\n", path)
		if install {
			a.pluginNote(family)
		}
		if codex {
			a.codexNotes(path, before, s.Doc, install)
		}
		if family == hooks.Gemini {
			a.geminiNotes(s.Doc, stBin, install)
		}
		return nil
	}
	s.StBin = stBin
	backup, err := wiring.WriteSettings(s, data)
	if err != nil {
		return err
	}
	if backup != "" {
		verb += " (previous file kept as " + backup + ")"
	}
	fmt.Fprintln(a.stdout, verb)
	if codex {
		a.codexNotes(path, before, s.Doc, install)
	}
	if family == hooks.Gemini {
		a.geminiNotes(s.Doc, stBin, install)
	}
	if install {
		a.pluginNote(family)
	}
	if install && family == hooks.ClaudeCode && !c.All {
		fmt.Fprintln(a.stdout, "Note: "+wiring.PartialNote+".")
	}
	return nil
}

// settingsPath picks the settings file: --settings, else the scope's file.
func (a *app) settingsPath(family string, scope, file *string) (string, error) {
	if file != nil {
		if *file == "" {
			return "", sterr.Msg("--settings requires a value")
		}
		return *file, nil
	}
	row, _ := wiring.ClientFor(family)
	sc := defaultScope(family)
	if scope != nil {
		sc = *scope
	}
	if path, ok := row.ScopeFile(sc, a.clientDir(row)); ok {
		return path, nil
	}
	if sc == "local" {
		return "", sterr.Msg("--scope local is not available for %s (use user or project)", family)
	}
	return "", sterr.Msg("--scope must be one of user|project|local, got: %s", sc)
}

// defaultScope is the settings scope without --scope, as the client's
// row says: the project's private file for Claude Code (it has one), the
// user's for Codex and Gemini CLI.
func defaultScope(family string) string {
	row, _ := wiring.ClientFor(family)
	return row.DefaultScope
}

// clientDir is a client's config folder as its row says.
func (a *app) clientDir(row wiring.Client) string {
	return row.ConfigDir(a.env.Get, a.env.Home())
}

func (a *app) claudeHome() string { return a.familyDir(hooks.ClaudeCode) }
func (a *app) codexHome() string  { return a.familyDir(hooks.Codex) }
func (a *app) geminiHome() string { return a.familyDir(hooks.Gemini) }

func (a *app) familyDir(family string) string {
	row, _ := wiring.ClientFor(family)
	return a.clientDir(row)
}

type hooksDoctorCmd struct {
	Settings *string `placeholder:"FILE" missing:"--settings requires a value" help:"check this settings file (default: the user and project files)"`
}

func (c *hooksDoctorCmd) Run(a *app) error {
	agent, _ := a.env.AgentName()
	opt := wiring.DoctorOptions{
		CodexHome: a.codexHome(),
		GeminiDir: a.geminiHome(),
		Agent:     agent,
		StBin:     a.selfPath(),
		LookPath:  a.lookPath,
		Env:       a.environ(),
		TempDir:   a.env.Get("TMPDIR"),
		Store:     a.storeCheck(),
	}
	if c.Settings != nil {
		opt.Files, opt.Required = []string{*c.Settings}, true
	} else {
		opt.CodexTOML = uniqueFiles(a.codexTOMLFiles())
		claude, _ := wiring.ClientFor(hooks.ClaudeCode)
		gemini, _ := wiring.ClientFor(hooks.Gemini)
		files := append(claude.Files(a.claudeHome()), a.codexHooksFiles()...)
		opt.Files = uniqueFiles(append(files, gemini.Files(a.geminiHome())...))
		opt.Plugins = a.findPlugins()
	}
	if wiring.Doctor(opt, a.stdout) {
		return exitCode(exitError)
	}
	return nil
}

// uniqueFiles drops the paths that name a file already listed: run from
// the home folder, the project's .claude/settings.json and .codex/ files
// are the user's, and checking them twice would report every st hook as
// wired twice.
func uniqueFiles(paths []string) []string {
	var out, seen []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			abs = p
		}
		if !slices.Contains(seen, abs) {
			seen = append(seen, abs)
			out = append(out, p)
		}
	}
	return out
}

// storeCheck names the real folders st's hooks write to, as the hooks
// resolve them (hook.go), for the doctor to check.
func (a *app) storeCheck() *wiring.StoreCheck {
	s := &wiring.StoreCheck{Root: a.env.Root(), StateDir: a.env.Get("XDG_STATE_HOME"), StateVar: "XDG_STATE_HOME"}
	if s.StateDir == "" {
		s.StateDir = filepath.Join(a.env.Home(), ".local", "state")
		s.StateVar = "XDG_STATE_HOME (unset, so ~/.local/state)"
	}
	for _, k := range []string{"ST_AGENT", "ST_IDENTITY", "COORD_IDENTITY"} {
		if v := a.env.Get(k); v != "" {
			s.AgentVar, s.Agent = k, v
			break
		}
	}
	return s
}

// environ is the environment fired hooks start from: the basics a
// harness passes on (the doctor sets the ST_* variables itself).
func (a *app) environ() []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "USER", "LANG", "LC_ALL", "TMPDIR", "SHELL"} {
		if v, ok := a.env.Lookup(k); ok {
			env = append(env, k+"="+v)
		}
	}
	return env
}
