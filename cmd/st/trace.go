package main

import (
	"maps"
	"syscall"
	"time"

	"github.com/smalltalk-go/st/hooks"
	"github.com/smalltalk-go/st/internal/duration"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

// traceCmd groups the trace verbs.
type traceCmd struct {
	Export traceExportCmd `cmd:"" reads:"ST_ROOT ST_AGENT OTEL_EXPORTER_OTLP_ENDPOINT OTEL_EXPORTER_OTLP_TRACES_ENDPOINT OTEL_EXPORTER_OTLP_HEADERS OTEL_SERVICE_NAME CLAUDE_CONFIG_DIR PATH" help:"send finished sessions to an OpenTelemetry backend as traces"`
}

// traceGroup is how `st trace` reacts to a missing or unknown sub-verb.
var traceGroup = group{}

// defaultTraceSince is how far back a bare `st trace export` looks for
// ended sessions not sent yet.
const defaultTraceSince = 24 * time.Hour

// traceExportCmd execs st-trace, which holds the OpenTelemetry SDK.
type traceExportCmd struct {
	Session *string `placeholder:"ID" missing:"--session requires a session id" help:"only this session of the agent (default: every session ended since --since)"`
	Since   *string `placeholder:"WHEN" missing:"--since requires a duration or a time" help:"the sessions ended since then: a duration ago (30m, 7d), a time (2026-12-02T10:00:00Z) or unix milliseconds (default: 24h)"`
	Agent   string  `arg:"" optional:"" form:"[<identity>]" predict:"@agent" agent:"" help:"whose sessions (default: every agent's; with --session, $ST_AGENT)"`
}

func (c *traceExportCmd) Run(a *app) error {
	// The environment's OTEL_* variables win over config.yaml's otel:
	// (where the hooks find them: Claude Code removes OTEL_* from theirs).
	env := map[string]string{}
	maps.Copy(env, hooks.LoadConfig(a.env.ConfigDir()).OTel)
	maps.Copy(env, a.otelEnv())
	if env["OTEL_EXPORTER_OTLP_ENDPOINT"] == "" && env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] == "" {
		return sterr.Msg("no OpenTelemetry endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) to your collector's OTLP/HTTP address, in the environment or under otel: in config.yaml")
	}
	if c.Session != nil && c.Since != nil {
		return sterr.Msg("--session and --since cannot be used together")
	}
	bin := a.companion("st-trace")
	if bin == "" {
		return sterr.Msg("the trace exporter st-trace is not installed next to %s or on PATH (install both: go install ./cmd/...)", a.selfPath())
	}
	argv := []string{bin, "export", "--root", a.root(), "--claude-dir", a.claudeDir()}
	if c.Agent != "" || c.Session != nil {
		id, err := a.resolve(c.Agent, layout.Strict)
		if err != nil {
			return err
		}
		argv = append(argv, "--agent", id)
	}
	if c.Session != nil {
		argv = append(argv, "--session", *c.Session)
	} else {
		since := defaultTraceSince
		if c.Since != nil {
			ms, err := duration.SinceMS(*c.Since, a.now())
			if err != nil {
				return err
			}
			since = max(a.now().Sub(time.UnixMilli(ms)), time.Millisecond)
		}
		argv = append(argv, "--since", since.String())
	}
	// Exec, not a child: its output and exit status are ours.
	childEnv := a.childEnv()
	for k, v := range env {
		childEnv = append(childEnv, k+"="+v)
	}
	return syscall.Exec(bin, argv, childEnv)
}

// otelVars are the OpenTelemetry variables st passes on to st-trace.
var otelVars = []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_HEADERS", "OTEL_SERVICE_NAME"}

// otelEnv is the environment's OpenTelemetry variables that are set.
func (a *app) otelEnv() map[string]string {
	env := map[string]string{}
	for _, k := range otelVars {
		if v := a.env.Get(k); v != "" {
			env[k] = v
		}
	}
	return env
}

// claudeDir is Claude Code's config folder, where its transcripts are.
func (a *app) claudeDir() string {
	if d := a.env.Get("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	return a.env.Home() + "/.claude"
}

// Help is trace export's paragraph.
func (traceExportCmd) Help() string {
	return `Sends each finished session as one trace over OTLP/HTTP, to the endpoint
the standard OTEL_EXPORTER_OTLP_* variables name (headers included), as the
service OTEL_SERVICE_NAME (default st). A trace holds the session's turns,
its model calls with their token usage (read from Claude Code's
transcript), its tool calls and its subagents, in the OpenTelemetry GenAI
conventions. Traces an earlier export could not send wait in the store and
go first; a session already sent is not sent again. The session-end hook
runs the same export on its own when an endpoint is set. It runs
{NAME}-trace, installed next to {NAME}.`
}

func (traceExportCmd) examples() []example {
	return []example{
		{"send the sessions that ended in the last day, and any left waiting", "st trace export"},
		{"send one session of alice", "st trace export alice --session 8ef91779-2425-4453-8525-1f6061eee1de"},
		{"to Langfuse", `OTEL_EXPORTER_OTLP_ENDPOINT=https://cloud.langfuse.com/api/public/otel OTEL_EXPORTER_OTLP_HEADERS="Authorization=Basic $(printf %s "$LANGFUSE_PUBLIC_KEY:$LANGFUSE_SECRET_KEY" | base64 -w0)" st trace export --since 7d`},
	}
}
