package wiring

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/hooks"
)

// DoctorOptions says what the doctor checks and how it fires hooks.
type DoctorOptions struct {
	Files     []string                     // settings files, in order
	Required  bool                         // a missing file is a failure (--settings)
	CodexHome string                       // $CODEX_HOME: its hooks.json is Codex's, its config.toml holds the trust
	GeminiDir string                       // Gemini CLI's config folder: its settings.json is Gemini CLI's
	CodexTOML []string                     // Codex config.toml files whose [hooks] may wire st too
	Agent     string                       // the agent the doctor's shell names ("" = none)
	StBin     string                       // the running st
	LookPath  func(string) (string, error) // PATH lookup for bare program names
	Env       []string                     // the environment fired hooks start from
	TempDir   string                       // parent of the temporary root
	Timeout   time.Duration                // per fired hook
	Store     *StoreCheck                  // the real folders the hooks write to (nil: not checked)
	Plugins   []PluginWiring               // the clients whose st plugin is enabled (FindPlugins)
}

// noAgentNote says why a session started from the doctor's shell gets
// nothing from st's hooks.
const noAgentNote = `NOTE  ST_AGENT is not set in this shell, so a session started from here has no agent:
      st's hooks then inject nothing (no now.md, no inbox list). Set it where
      you start the session, e.g. ` + "`ST_AGENT=alice codex`" + ` or ` + "`export ST_AGENT=alice`" + `.`

// Doctor reads the settings files, lists our hooks and every hook whose
// program is missing or not executable, fires each of ours with a sample
// payload against a temporary root, and prints PASS or FAIL with the
// latency of each. It reports whether anything failed.
func Doctor(opt DoctorOptions, w io.Writer) (failed bool) {
	var problems []string
	fail := func(format string, args ...any) {
		failed = true
		line := fmt.Sprintf(format, args...)
		problems = append(problems, line)
		fmt.Fprintln(w, "FAIL  "+line)
	}
	defer func() {
		if failed {
			fmt.Fprintln(w, summary(problems))
		}
	}()
	if opt.Timeout == 0 {
		opt.Timeout = 10 * time.Second
	}
	var ours []Handler
	settingsEvents := map[string][]string{} // by family, the events settings files wire st for
	codex := newCodexCheck(opt.CodexHome)
	var resv reserveCheck
	geminiWired := false
	for _, path := range opt.Files {
		isCodex := isCodexFile(path) || opt.CodexHome != "" && path == filepath.Join(opt.CodexHome, "hooks.json")
		isGemini := !isCodex && isGeminiFile(path, opt.GeminiDir)
		family := hooks.ClaudeCode
		switch {
		case isCodex:
			family = hooks.Codex
		case isGemini:
			family = hooks.Gemini
		}
		s, err := ReadSettings(path, isCodex)
		if err != nil {
			fail("%v", err)
			continue
		}
		if !s.Exists {
			if opt.Required {
				fail("%s: no such file", path)
			} else {
				fmt.Fprintf(w, "# %s: not present\n", path)
			}
			continue
		}
		fmt.Fprintf(w, "# %s\n", path)
		for _, h := range AllHandlers(s.Doc) {
			if _, ok := OursEvent(h.Command, opt.StBin); ok {
				fmt.Fprintf(w, "  st    %s: %s\n", h.Event, h.Command)
				ours = append(ours, h)
				settingsEvents[family] = append(settingsEvents[family], h.Event)
			}
			if problem := checkProgram(h.Command, opt.LookPath); problem != "" {
				fail("%s: %s: %s", h.Event, h.Command, problem)
			}
		}
		if isCodex {
			codex.trust(path, s.Doc, opt.StBin, fail, w)
		}
		if isGemini {
			for _, p := range GeminiSwitchProblems(s.Doc, opt.StBin) {
				fail("%s: %s", path, p)
			}
			if len(Installed(s.Doc, opt.StBin)) > 0 {
				geminiWired = true
			}
		}
		resv.add(s.Doc, opt.StBin, family)
	}
	for _, path := range opt.CodexTOML {
		inTOML := codex.tomlHooks(path, opt.StBin, fail, w)
		for _, h := range inTOML {
			settingsEvents[hooks.Codex] = append(settingsEvents[hooks.Codex], h.Event)
		}
		ours = append(ours, inTOML...)
		resv.addTOML(path, opt.StBin)
	}
	reportWays(opt.Plugins, settingsEvents, fail, w)
	if len(ours) == 0 {
		if len(opt.Plugins) == 0 {
			fmt.Fprintln(w, "no st hooks found (install the st plugin, or the hooks with `st hooks install`)")
		}
		return failed
	}
	codex.report(fail, w)
	if geminiWired {
		fmt.Fprintln(w, "# "+GeminiTrustAdvice)
	}
	if opt.Agent == "" {
		fmt.Fprintln(w, noAgentNote)
	}
	if opt.Store != nil {
		checkStore(*opt.Store, fail, w)
	}
	for _, h := range ours {
		if oldSessionStart(h, opt.StBin) {
			fail("%s: %s: %s", h.Event, h.Command, oldSessionStartFix)
			continue
		}
		ms, problem := fire(h, opt)
		switch {
		case problem != "":
			fail("%s: %s (%d ms): %s", h.Event, h.Command, ms, problem)
		case codex.skips(h.Event, h.Command):
			// Its FAIL line above stands: a PASS here would contradict it.
			fmt.Fprintf(w, "  ok    %s: %s answers when fired (%d ms), but Codex will not run it until trusted\n", h.Event, h.Command, ms)
		default:
			fmt.Fprintf(w, "PASS  %s: %s (%d ms)\n", h.Event, h.Command, ms)
		}
	}
	resv.codexSkips = codex.skips
	resv.report(opt, fail, w)
	if claudeEvents := settingsEvents[hooks.ClaudeCode]; len(claudeEvents) > 0 && len(MissingFromAll(claudeEvents)) > 0 {
		fmt.Fprintf(w, "# %s (missing: %s)\n", PartialNote, strings.Join(MissingFromAll(claudeEvents), ", "))
	}
	return failed
}

// summary is the doctor's last line after a FAIL: how many problems and
// what each is about (the text before its first ": "), so the output
// never ends on PASS lines that read as healthy.
func summary(problems []string) string {
	var about []string
	for _, p := range problems {
		topic, _, _ := strings.Cut(p, ": ")
		if !slices.Contains(about, topic) {
			about = append(about, topic)
		}
	}
	noun := "problems"
	if len(problems) == 1 {
		noun = "problem"
	}
	return fmt.Sprintf("%d %s: %s. st's hooks will not work as expected until each FAIL line above is fixed.",
		len(problems), noun, strings.Join(about, "; "))
}

func isCodexFile(path string) bool {
	return filepath.Base(path) == "hooks.json" && filepath.Base(filepath.Dir(path)) == ".codex"
}

// checkProgram returns why a command's program cannot run, or "".
// Commands starting with a variable or a shell construct are not judged.
func checkProgram(command string, lookPath func(string) (string, error)) string {
	w := ShellWords(command)
	if len(w) == 0 {
		return "empty command"
	}
	prog := w[0]
	if strings.ContainsAny(prog, "$`(){}<>|&;*?~") || strings.Contains(prog, "=") {
		return ""
	}
	if !strings.Contains(prog, "/") {
		if lookPath == nil {
			return ""
		}
		if _, err := lookPath(prog); err != nil {
			return prog + " not found on PATH"
		}
		return ""
	}
	fi, err := os.Stat(prog)
	if errors.Is(err, fs.ErrNotExist) {
		return prog + " does not exist"
	}
	if err != nil {
		return err.Error()
	}
	if fi.IsDir() || fi.Mode().Perm()&0o111 == 0 {
		return prog + " is not executable"
	}
	return ""
}

// fire runs one of our handlers as the harness would (sh -c, payload on
// stdin) against a fresh temporary root and checks its result.
func fire(h Handler, opt DoctorOptions) (ms int64, problem string) {
	event, _ := OursEvent(h.Command, opt.StBin)
	tmp, err := os.MkdirTemp(opt.TempDir, "st-doctor-")
	if err != nil {
		return 0, err.Error()
	}
	defer func() { _ = os.RemoveAll(tmp) }() // a leftover temp folder harms nothing
	env := []string{}
	for _, kv := range opt.Env {
		if !strings.HasPrefix(kv, "ST_") && !strings.HasPrefix(kv, "COORD_") && !strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			env = append(env, kv)
		}
	}
	root := filepath.Join(tmp, "root")
	env = append(env, "ST_ROOT="+root, "ST_AGENT=doctor", "ST_OPERATOR=operator", "ST_RETRY_BASE_S=0",
		"ST_CONFIG="+filepath.Join(tmp, "config"), "XDG_STATE_HOME="+filepath.Join(tmp, "state"))
	ctx, cancel := context.WithTimeout(context.Background(), opt.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.Command)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(hooks.Sample(event))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	ms = time.Since(start).Milliseconds()
	if ctx.Err() != nil {
		return ms, fmt.Sprintf("timed out after %s", opt.Timeout)
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		return ms, err.Error()
	}
	return ms, judge(event, h.Command, code, stdout.Bytes(), stderr.Bytes(), root)
}

// judge checks a fired hook's exit code and output.
func judge(event, command string, code int, stdout, stderr []byte, root string) string {
	want := 0
	if event == hooks.StopFailure && strings.Contains(command, "--retry") {
		want = 2 // the wake-up: stop-failure --retry asks for a retry of the sample rate_limit
	}
	if code != want {
		return fmt.Sprintf("exit %d, want %d (stderr: %q)", code, want, firstLine(stderr))
	}
	if err := hooks.CheckOutput(event, stdout); err != nil {
		return err.Error()
	}
	switch event {
	case hooks.SessionStart: // only the --json form is fired (oldSessionStart)
		if !strings.Contains(string(stdout), "Run the st boot ritual") {
			return "no boot-ritual line in the output"
		}
	case hooks.PreCompact:
		if len(stdout)+len(stderr) > 0 {
			return "pre-compact printed something; it must stay silent"
		}
		if _, err := os.Stat(filepath.Join(root, "doctor", "context", "now.md")); err != nil {
			return "pre-compact did not write the now.md stub"
		}
	case hooks.StopFailure:
		if _, err := os.Stat(filepath.Join(root, "doctor", "status")); err != nil {
			return "stop-failure did not set the status"
		}
	}
	return ""
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return s
}
