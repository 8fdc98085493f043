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
	bin := c.opt.TraceBin
	env := otelEnv(c.opt.OTelEnv, c.opt.Config.OTel)
	if bin == "" || c.opt.Agent == "" || !events.ValidSession(c.p.SessionID) ||
		env["OTEL_EXPORTER_OTLP_ENDPOINT"] == "" && env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] == "" {
		return
	}
	args := []string{"export", "--quiet", "--root", c.opt.Root, "--agent", c.opt.Agent, "--session", c.p.SessionID}
	if c.p.TranscriptPath != "" {
		args = append(args, "--transcript", c.p.TranscriptPath)
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
