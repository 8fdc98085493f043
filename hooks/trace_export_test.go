package hooks

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// config.yaml's otel: names OTEL_* variables (others are ignored); the
// environment's own win over it.
func TestOTelEnv(t *testing.T) {
	c := ParseConfig([]byte("otel:\n  OTEL_EXPORTER_OTLP_ENDPOINT: http://c:4318\n  OTEL_SERVICE_NAME: st-a\n  PATH: /evil\n"))
	if want := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "st-a"}; !reflect.DeepEqual(c.OTel, want) {
		t.Errorf("otel: = %v, want %v", c.OTel, want)
	}
	for _, tt := range []struct {
		env, config, want map[string]string
	}{
		{nil, nil, map[string]string{}},
		{map[string]string{"OTEL_SERVICE_NAME": "from-env"}, c.OTel,
			map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://c:4318", "OTEL_SERVICE_NAME": "from-env"}},
		{map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e:4318"}, nil, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://e:4318"}},
	} {
		if got := otelEnv(tt.env, tt.config); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("otelEnv(%v, %v) = %v, want %v", tt.env, tt.config, got, tt.want)
		}
	}
	if c.OTel["OTEL_SERVICE_NAME"] != "st-a" {
		t.Errorf("otelEnv changed the config's map")
	}
}

// Codex has no session end: its Stop starts st-trace to send the session
// as it stands, again (--again), with Codex's rollout as the transcript,
// once the Stop line is in the log.
func TestCodexStopExportsTheSession(t *testing.T) {
	opt := testOptions(t)
	opt.Config = DefaultConfig()
	dir := t.TempDir()
	args := filepath.Join(dir, "args")
	bin := filepath.Join(dir, "st-trace")
	writeFile(t, bin, "#!/bin/sh\nls \"$4/$6/events\" > \""+args+".tmp\"\necho \"$@\" >> \""+args+".tmp\"\nmv \""+args+".tmp\" \""+args+"\"\n")
	if err := os.Chmod(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	opt.TraceBin, opt.OTelEnv = func() string { return bin }, map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:1"}
	payload := `{"session_id":"c1","hook_event_name":"Stop","transcript_path":"/r/rollout-c1.jsonl","stop_hook_active":false}`
	Run(CodexStop, []byte(payload), opt)
	var got []byte
	for range 200 { // st-trace runs detached: wait for its note
		if got, _ = os.ReadFile(args); len(got) > 0 {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	want := "c1.jsonl\nexport --quiet --root " + opt.Root + " --agent alice --session c1 --transcript /r/rollout-c1.jsonl --again\n"
	if string(got) != want {
		t.Errorf("st-trace ran with:\n%s\nwant:\n%s", got, want)
	}
}

// Without an OTLP endpoint, the hooks that export a trace (a session end,
// Codex's Stop) do not look for st-trace: finding it walks $PATH, at
// every one of them.
func TestSessionEndLooksForStTraceOnlyWithAnEndpoint(t *testing.T) {
	payloads := map[string]string{
		SessionEnd: `{"session_id":"s1","hook_event_name":"SessionEnd","reason":"exit"}`,
		CodexStop:  `{"session_id":"c1","hook_event_name":"Stop","transcript_path":"/r/rollout-c1.jsonl","stop_hook_active":false}`,
	}
	for event, payload := range payloads {
		for _, endpoint := range []string{"", "http://127.0.0.1:1"} {
			opt := testOptions(t)
			opt.Config = DefaultConfig()
			looked := false
			opt.TraceBin = func() string { looked = true; return "" }
			opt.OTelEnv = map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": endpoint}
			Run(event, []byte(payload), opt)
			if looked != (endpoint != "") {
				t.Errorf("%s, endpoint %q: looked for st-trace = %v", event, endpoint, looked)
			}
		}
	}
}
