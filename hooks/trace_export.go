package hooks

import (
	"maps"
	"os"
	"os/exec"
	"syscall"

	"github.com/smalltalk-go/st/events"
)

// exportTrace starts st-trace to send the session that just ended as a
// trace (package trace), when an OTLP endpoint is set. It does not wait:
// the process runs in a session of its own with no stdin or output, so
// session-end answers in milliseconds and the client's end does not kill
// it; a trace it cannot send is spooled in the store, and the next
// export sends it. It runs after the SessionEnd line is in the log, so
// the trace ends with it.
func exportTrace(c *call) {
	startExport(c.opt, c.p.SessionID, c.p.TranscriptPath, false)
}

// exportCodexTrace sends a Codex session as it stands at the end of a
// turn: Codex has no session end, so each Stop sends the session again
// (--again), built from st's event log and Codex's rollout (the
// transcript_path of its payload, with each model response's tokens).
// The IDs are the same each time, so a backend holds one trace that
// grows. It runs after the Stop line is in the log.
func exportCodexTrace(c *call) {
	payload := c.payload
	if payload == nil {
		payload = c.opt.logPayload() // read for the event line already
	}
	p, _ := ParsePayload(payload)
	startExport(c.opt, p.SessionID, p.TranscriptPath, true)
}

// startExport starts st-trace detached to send agent's session.
func startExport(opt Options, session, transcript string, again bool) {
	env := otelEnv(opt.OTelEnv, opt.Config.OTel)
	if opt.TraceBin == nil || opt.Agent == "" || !events.ValidSession(session) ||
		env["OTEL_EXPORTER_OTLP_ENDPOINT"] == "" && env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] == "" {
		return
	}
	bin := opt.TraceBin()
	if bin == "" {
		return
	}
	args := []string{"export", "--quiet", "--root", opt.Root, "--agent", opt.Agent, "--session", session}
	if transcript != "" {
		args = append(args, "--transcript", transcript)
	}
	if again {
		args = append(args, "--again")
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = os.Environ()
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if cmd.Start() != nil {
		return // fail open: the session is still in the log for `st trace export`
	}
	_ = cmd.Process.Release() // never waited for: it outlives the hook
}

// otelEnv is the environment's OTEL_* variables, with config.yaml's
// filling in those it lacks.
func otelEnv(fromEnv, fromConfig map[string]string) map[string]string {
	out := maps.Clone(fromConfig)
	if out == nil {
		out = map[string]string{}
	}
	for k, v := range fromEnv {
		if v != "" {
			out[k] = v
		}
	}
	return out
}
