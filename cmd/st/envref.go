package main

import (
	"fmt"
	"strings"
)

// The one declaration of every environment variable st reads and every
// key of $ST_CONFIG/config.yaml: `st help env`, the Environment section
// of each verb's help and docs/env.md are rendered from it, and
// TestEnvDeclared and TestConfigKeysDeclared fail when the code reads a
// variable or key missing here. The tables are plain data (no work at
// start-up).

// setting is one variable or config key.
type setting struct {
	name    string
	def     string // the default, "" when there is none worth saying
	meaning string
	readers string // which commands or programs read it
}

// settingGroup is a titled list of settings.
type settingGroup struct {
	title string
	intro string
	list  []setting
}

var envGroups = []settingGroup{
	{"Store and identity", "", []setting{
		{"ST_ROOT", "~/.local/state/smalltalk", "the store root: every agent's folders live under it", "every verb, the hooks, st-mcp, st-dashboard"},
		{"ST_AGENT", "", "your agent name, when the command does not name one; without it the hooks inject nothing", "every verb that acts as an agent, the hooks, st-mcp"},
		{"ST_CONFIG", "~/.config/smalltalk", "the config folder holding peers.yaml (st sync) and config.yaml (the hooks)", "st sync, the hooks"},
	}},
	{"Plugin options", "Set by the st plugins from the agent and store their user chose (Claude Code's plugin options, Gemini CLI's extension settings); each stands in for ST_AGENT or ST_ROOT only where that is unset or empty.", []setting{
		{"ST_PLUGIN_AGENT", "", "the agent, where ST_AGENT is unset", "as ST_AGENT"},
		{"ST_PLUGIN_ROOT", "", "the store root, where ST_ROOT is unset", "as ST_ROOT"},
		{"CLAUDE_PLUGIN_OPTION_AGENT", "", "Claude Code's name for the plugin's agent option in its hooks' environment", "as ST_AGENT"},
		{"CLAUDE_PLUGIN_OPTION_ROOT", "", "Claude Code's name for the plugin's root option in its hooks' environment", "as ST_ROOT"},
	}},
	{"Limits and timing", "", []setting{
		{"ST_MAX_MESSAGE_BYTES", "4194304", "the biggest message, now.md or resource accepted or loaded, in bytes; anything but a positive number means the default", "message send, reply, context write, resource add, st-mcp, st-dashboard"},
		{"ST_STDIN_TIMEOUT_MS", "10000", "how long to wait for a piped body to end, in ms", "message send, reply, context write, resource add"},
	}},
	{"Hooks", "Read by `st hook <event>` (what `st hooks install` wires). A value that is empty, malformed or negative means the default.", []setting{
		{"ST_HOOK_TIMEOUT_MS", "2000", "a hook's whole deadline in ms (payload, config.yaml, locks, its event line); past it the hook gives its fail-open answer", "every hook"},
		{"ST_HOOK_CONTEXT_BUDGET", "9999 for Claude Code, 8000 for Codex", "the budget, in bytes, of the text a hook injects (now.md and the inbox list); at least 1000; wins over config.yaml's hook_context_budget", "session-start, codex-session-start, codex-stop"},
		{"ST_REHYDRATE_STALE_S", "86400", "a now.md older than this many seconds is not injected at session start", "session-start, codex-session-start"},
		{"ST_PRECOMPACT_TIMEOUT_S", "5", "deadline of the pre-compact write, in seconds (a set ST_HOOK_TIMEOUT_MS bounds it too)", "pre-compact"},
		{"ST_PRECOMPACT_FRESH_S", "300", "a now.md younger than this many seconds counts as flushed before a compaction", "pre-compact"},
		{"ST_FLUSH_REMIND_S", "1800", "remind the model to rewrite now.md when it is older than this many seconds", "user-prompt-submit"},
		{"ST_LARGE_READ_BYTES", "16384", "a Read of a whole file bigger than this many bytes gets an advisory", "pre-tool-use"},
		{"ST_OPERATOR", "config.yaml's operator, else operator", "the agent that receives failure and waiting-on-a-human messages; agents, overview and the dashboard do not count its mailbox as an agent", "stop-failure, notification, agents, overview, st-dashboard"},
		{"ST_STOPFAILURE_WINDOW_S", "600", "API failures within this many seconds make one message to the operator", "stop-failure"},
		{"ST_RETRY_BASE_S", "15", "first backoff of stop-failure --retry, in seconds (it doubles per attempt)", "stop-failure --retry"},
		{"ST_RETRY_MAX_S", "600", "longest backoff of stop-failure --retry, in seconds", "stop-failure --retry"},
		{"ST_CAPTURE_PROMPTS", "", "1 stores each UserPromptSubmit payload under <agent>/spool/ (as config.yaml's capture_prompts: true)", "user-prompt-submit"},
	}},
	{"Fleet and dashboard", "", []setting{
		{"ST_HOST", "the machine's host name", "this machine's name in the fleet (.st-hosts/<host>)", "st sync, agents, overview, status --set and context write (for another agent), st-dashboard, session-start, codex-session-start (the fleet brief), the hooks' event lines (the host where a person finds the agent)"},
		{"ST_SYNC_STALE_S", "900", "a host not synced for this many seconds is flagged STALE", "agents, overview, st-dashboard, session-start, codex-session-start (the fleet brief)"},
		{"ST_SYNC_TIMEOUT_S", "120", "seconds one peer may take before its rsync and ssh are stopped", "st sync, st sync serve"},
		{"ST_SYNC_REMOTE_ST", "st", "the command that runs st on a peer over ssh, for st sync serve's connection to st sync watch there; give a full path when st is not on the peer's PATH for ssh commands", "st sync serve"},
		{"RSYNC_RSH", "ssh", "the remote shell rsync runs, e.g. \"ssh -p 2222 -i ~/.ssh/st_sync\" (rsync's own variable); st adds its connect and keep-alive timeouts unless it sets them with -o", "st sync"},
		{"BROWSER", "xdg-open", "the browser dashboard --open starts", "dashboard --open"},
		{"ST_CHANNEL_DEBUG", "", "1 prints the MCP channel's debug lines on stderr", "mcp"},
		{"ST_DEBUG", "", "non-empty prints a stack trace after an internal error", "every verb"},
	}},
	{"OpenTelemetry (the standard variables; st-trace's exporter reads them)", "", []setting{
		{"OTEL_EXPORTER_OTLP_ENDPOINT", "", "the collector's OTLP/HTTP address (traces go to <it>/v1/traces); set (here or under otel: in config.yaml), session-end sends each finished session as a trace", "trace export, session-end"},
		{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "", "the full URL traces are posted to, instead of the above", "trace export, session-end"},
		{"OTEL_EXPORTER_OTLP_HEADERS", "", "headers for the collector, key=value,… (e.g. Authorization=Basic …)", "trace export, session-end"},
		{"OTEL_SERVICE_NAME", "st", "the service the traces are from", "trace export, session-end"},
	}},
	{"Set by the clients, or naming their folders", "", []setting{
		{"CLAUDE_CONFIG_DIR", "~/.claude", "Claude Code's user folder, whose settings.json --scope user edits and doctor checks, and where trace export finds transcripts", "hooks install, uninstall, doctor, trace export"},
		{"CODEX_HOME", "~/.codex", "Codex's folder: hooks.json, config.toml and the trust Codex keeps there", "hooks install, uninstall, doctor, init --for codex"},
		{"GEMINI_CLI_HOME", "~", "the folder Gemini CLI takes for the home folder: its settings are in $GEMINI_CLI_HOME/.gemini", "hooks install, uninstall, doctor, init --for gemini"},
		{"CLAUDE_CODE_SESSION_ID", "", "the Claude Code session, when a payload does not say (set by Claude Code)", "stop"},
		{"CLAUDE_CODE_SESSION_ATTENDED", "", "0 (set by Claude Code for -p and the SDK): nobody can wake the session, so stop-failure --retry does not wait", "stop-failure --retry"},
		{"CLAUDE_PID", "", "the Claude Code process (set by Claude Code); its command line tells whether a session can be woken", "stop-failure --retry"},
		{"CLAUDE_CODE_ENTRYPOINT", "", "stored with a captured prompt (set by Claude Code)", "user-prompt-submit"},
		{"CLAUDECODE", "", "1 (set by Claude Code for the commands its tools run): message read marks the body as the sender's text, every line quoted", "message read"},
		{"GEMINI_CLI", "", "1 (set by Gemini CLI for the commands its tools run): as CLAUDECODE", "message read"},
		{"TMUX_PANE", "", "the tmux pane the agent runs in (set by tmux): stored with a captured prompt, and recorded so the board can say where an agent that needs a person is", "user-prompt-submit, session-start, notification, stop-failure, stop, post-tool-use, post-tool-use-failure, session-end"},
	}},
	{"System", "", []setting{
		{"HOME", "the account's home folder", "the base of the default root, config and state folders", "every verb"},
		{"XDG_STATE_HOME", "~/.local/state", "the state folder: the Codex hooks' cursors, the note a hook leaves when it cannot write, the marks of which agents live on this host (st-homes/)", "the hooks, every verb (to print that note), doctor, st-dashboard"},
		{"TMPDIR", "/tmp", "where a hook leaves its note when the state folder is unwritable too; doctor's scratch folders", "the hooks, doctor, st-dashboard"},
		{"PATH", "", "where rsync, plugins (st-<verb>), st-mcp, st-dashboard and browsers are found", "every verb"},
		{"GOGC", "400", "the Go collector's target; st sets 400 unless this is set", "every verb"},
		{"GOMEMLIMIT", "1GiB", "the Go soft memory limit; st sets 1 GiB unless this is set", "every verb"},
	}},
	{"Legacy names", "Still read, each with a notice once per command; move to the new name.", []setting{
		{"ST_IDENTITY", "", "the old name of ST_AGENT", "as ST_AGENT"},
		{"COORD_IDENTITY", "", "the older name of ST_AGENT", "as ST_AGENT"},
		{"COORD_ROOT", "", "the old name of ST_ROOT", "as ST_ROOT"},
	}},
	{"Internal", "Set by st for the programs it starts, or test seams; not for everyday use.", []setting{
		{"_ST_INVOKED_AS", "", "the name st was invoked as, handed to st-mcp, st-dashboard and plugins so their messages say it", "st-mcp, st-dashboard, plugins"},
		{"_ST_MCP_HANDOVER_FD", "", "the descriptor of the session st-mcp hands to st-mcp-server when it execs it", "st-mcp-server"},
		{"ST_HOOK_CHILD", "", "1 marks a session a hook started; its prompts are not captured", "user-prompt-submit"},
		{"ST_HOOK_TEST_PANIC", "", "1 makes a hook panic (tests of the fail-open path)", "every hook"},
		{"ST_HOOK_TEST_DELAY_MS", "", "delays a hook by this many ms (tests of the deadline)", "every hook"},
	}},
	{"Tests and benchmarks", "Read by `go test` and scripts/, never by st itself.", []setting{
		{"ST_TEST_NOW", "", "a fixed clock, in unix ms, for cmd/st's tests", "cmd/st tests"},
		{"ST_UPDATE_SCRIPTS", "", "non-empty rewrites the testscripts' expected output", "cmd/st tests"},
		{"ST_E2E_CACHE", "the user cache folder, st-e2e/", "where the real clients are installed once", "e2e/"},
		{"ST_E2E_KEEP", "", "a folder to keep the clients' debug logs in", "e2e/claudecode"},
		{"ST_E2E_KEEP_TRANSCRIPT", "", "a file to keep a session's transcript in", "e2e/claudecode"},
		{"ST_E2E_UPDATE_PAYLOADS", "", "1 re-records testdata/payloads from the real client", "e2e/claudecode, e2e/codex"},
		{"ST_CHROMIUM", "chromium on PATH", "the browser the dashboard's browser tests drive", "dashboard tests"},
		{"ST_DASHBOARD_ARTIFACTS", "$TMPDIR/st-dashboard-screenshots", "where the browser tests save screenshots", "dashboard tests"},
		{"ST_DASHBOARD_FLEET17", "", "a folder keeping the 1,000-agent benchmark store between runs", "dashboard benchmarks, scripts/dashboard-bench"},
		{"ST_DASHBOARD_SOAK", "", "how long the browser soak runs, e.g. 10m", "dashboard benchmarks"},
		{"ST_FAULT_RUNS", "6", "how many kills the sync fault test makes", "peersync tests, scripts/syncfaults"},
		{"ST_FLEETSIM_DRAIN", "5m", "how long the fleet simulation waits for every message", "scripts/fleetsim"},
		{"ST_FLEETSIM_SEND", "30s", "how long the simulated agents send", "scripts/fleetsim"},
		{"ST_RESERVE_ROUNDS", "", "rounds of the racing reservation processes", "reserve tests, scripts/reserve-race"},
		{"ST_ARCHIVE_RACE_MESSAGES", "", "messages raced by the archive race test", "cmd/st tests, scripts/archiverace"},
	}},
}

// configKeys are the keys of $ST_CONFIG/config.yaml, all read by the
// hooks. A sub-key is written parent.child, list items parent[].child.
var configKeys = []setting{
	{"operator", "operator", "the agent that receives operator messages (ST_OPERATOR wins)", "stop-failure, notification"},
	{"notify_operator_on", "[permission_prompt]", "the Claude Code notification types that message the operator: a list, or one comma-separated string (permission_prompt, idle_prompt, …)", "notification"},
	{"capture_prompts", "false", "true stores each UserPromptSubmit payload under <agent>/spool/", "user-prompt-submit"},
	{"context_window", "200000", "the context window, in tokens, that the context-fill warnings and the dashboard's bar measure against (a Codex agent's comes from its rollout)", "user-prompt-submit, post-tool-use, stop, pre-compact"},
	{"hook_context_budget", "9999 for Claude Code, 8000 for Codex", "the injected text's budget in bytes: one number for every client, or a mapping {claude-code: N, codex: N}; ST_HOOK_CONTEXT_BUDGET wins", "session-start, codex-session-start, codex-stop"},
	{"brief", "auto", "the fleet brief at session start: off, auto (only when an agent waits on a person, is stopped on an API error, thrashes or is silent while busy, a host is stale, or messages wait for this agent's acknowledgement) or always", "session-start, codex-session-start"},
	{"otel", "", "OpenTelemetry variables by name (OTEL_EXPORTER_OTLP_ENDPOINT: …, OTEL_EXPORTER_OTLP_HEADERS: …) for the traces of finished sessions: Claude Code removes OTEL_* from its hooks' environment; the environment's own win", "session-end, trace export"},
	{"stop_judge", "", "a command (run with /bin/sh -c) that gets the turn's prompt and last reply as JSON on stdin and prints the probability that the agent stopped early; empty: no judge", "stop, codex-stop"},
	{"stop_nudge_threshold", "0.7", "above this probability from stop_judge the turn continues with one line of nudge (once per stop chain, at most three times per prompt); subagent_gate's threshold too", "stop, codex-stop, subagent-stop"},
	{"subagent_gate", "", "a command (run with /bin/sh -c, as stop_judge) that gets a subagent's task and final reply as JSON on stdin and prints the probability that it only returned a plan; above stop_nudge_threshold the subagent is sent back to work, once; empty: no gate", "subagent-stop"},
	{"shell_undecided", "refuse", "allow lets through a tool call that names a file another agent reserved, or writes files st cannot see, when st cannot tell whether it changes them (inline interpreter code, a variable in a path, an unknown command); a decided write of a reserved file is refused either way", "pre-tool-use, codex-pre-tool-use, gemini-before-tool"},
	{"subagent_contract", "st's own paragraph", "the text every subagent gets at its start, replacing the default report contract", "subagent-start"},
	{"deny[].tool", "any tool", "the tools a deny rule applies to (see below)", "pre-tool-use"},
	{"deny[].pattern", "", "the rule's regular expression (see below)", "pre-tool-use"},
	{"deny[].reason", "Denied by an st deny rule (…)", "what the model is told when the rule refuses a call", "pre-tool-use"},
	{"stop-failure.<type>.status", "the built-in policy", "the status an API failure of that type sets: a settable state, or none to leave it alone", "stop-failure"},
	{"stop-failure.<type>.notify", "the built-in policy", "whether that failure type messages the operator (true or false)", "stop-failure"},
	{"stop-failure.<type>.priority", "the built-in policy", "that message's priority: low, normal or high", "stop-failure"},
}

// denySyntax explains config.yaml's deny rules.
const denySyntax = `Each rule of deny: is a mapping with tool, pattern and reason. Claude Code's
PreToolUse hook (wired by st hooks install --all) checks every tool call
against the rules in order, and the first that matches refuses the call,
telling the model the reason.

- tool: the tool's name as the client sends it (Bash, Edit, Write, Read,
  WebFetch, …); several joined with | (Edit|Write); empty or * for any tool.
  Names are compared exactly, case included.
- pattern: a regular expression in Go's RE2 syntax, unanchored (add ^ and $
  to match the whole), matched against the call's first non-empty field of
  command, file_path, notebook_path, path and url. A call with none of them
  is never refused. A rule whose pattern is empty or does not compile is
  ignored (the hooks fail open).
- reason: the text the model gets; without one it is told the rule's tool
  and pattern.

Example:

    deny:
      - {tool: Bash, pattern: 'git\s+push\s+.*--force', reason: "No force pushes."}
      - {tool: Edit|Write, pattern: '(^|/)\.env$', reason: "Secrets stay out of edits."}
      - {tool: "*", pattern: 'prod\.example\.com'}

A key of the wrong type keeps its default and the others still count; a
missing, unreadable or malformed config.yaml is the same as an empty one;
the file is read up to 1 MiB.`

// envSetting finds a declared environment variable.
func envSetting(name string) *setting {
	for gi := range envGroups {
		for i := range envGroups[gi].list {
			if envGroups[gi].list[i].name == name {
				return &envGroups[gi].list[i]
			}
		}
	}
	return nil
}

// envMeaning says what an environment variable does, for the
// Environment section of a verb's help.
func envMeaning(v string) string {
	s := envSetting(v)
	if s == nil {
		return ""
	}
	if s.def != "" {
		return s.meaning + " (default " + s.def + ")"
	}
	return s.meaning
}

// envHelp renders `st help env`.
func envHelp(name string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s help env\n\nThe environment variables %s reads and the keys of $ST_CONFIG/config.yaml.\n", name, name)
	b.WriteString("The same list, with who reads each, is docs/env.md.\n")
	for _, g := range envGroups {
		b.WriteString("\n" + g.title + ":\n")
		if g.intro != "" {
			writeWrapped(&b, "  ", named(g.intro, name), 2)
		}
		var rows [][2]string
		for _, s := range g.list {
			rows = append(rows, [2]string{s.name, defaulted(s)})
		}
		writeTable(&b, rows)
	}
	b.WriteString("\nconfig.yaml keys ($ST_CONFIG/config.yaml, read by the hooks):\n")
	var rows [][2]string
	for _, s := range configKeys {
		rows = append(rows, [2]string{s.name, defaulted(s)})
	}
	writeTable(&b, rows)
	b.WriteString("\nDeny rules:\n")
	for _, line := range strings.Split(denySyntax, "\n") {
		b.WriteString(strings.TrimRight("  "+line, " ") + "\n")
	}
	return b.String()
}

func defaulted(s setting) string {
	if s.def == "" {
		return s.meaning
	}
	return s.meaning + " (default " + s.def + ")"
}

// envReference renders docs/env.md; TestEnvReference keeps the
// checked-in file equal to it.
func envReference() string {
	var b strings.Builder
	b.WriteString("# st environment and configuration reference\n\n")
	b.WriteString("Generated from the declaration in `cmd/st/envref.go` (the same list `st help env`\n" +
		"prints); do not edit by hand. After changing it, run\n" +
		"`go test ./cmd/st -run TestEnvReference -update`. A test fails when the code reads\n" +
		"an environment variable or a config.yaml key that is not declared there.\n\n")
	b.WriteString("## Environment variables\n")
	for _, g := range envGroups {
		b.WriteString("\n### " + g.title + "\n\n")
		if g.intro != "" {
			b.WriteString(g.intro + "\n\n")
		}
		writeMDTable(&b, "Variable", g.list)
	}
	b.WriteString("\n## config.yaml\n\n`$ST_CONFIG/config.yaml` (default `~/.config/smalltalk/config.yaml`) tunes the\n" +
		"hooks; every key is optional.\n\n")
	writeMDTable(&b, "Key", configKeys)
	b.WriteString("\n### Deny rules\n\n")
	b.WriteString(denySyntax + "\n")
	return b.String()
}

func writeMDTable(b *strings.Builder, first string, list []setting) {
	fmt.Fprintf(b, "| %s | Default | Meaning | Read by |\n|---|---|---|---|\n", first)
	for _, s := range list {
		def := s.def
		if def != "" {
			def = "`" + def + "`"
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", s.name, def, mdCell(s.meaning), mdCell(s.readers))
	}
}

// mdCell escapes what would break a Markdown table cell.
func mdCell(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;").Replace(s)
}
