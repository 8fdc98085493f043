// Package jaegertest runs a real Jaeger (v2, the release tools/jaeger
// pins) for the trace tests: in-memory storage, the OTLP/HTTP receiver
// and the query API on loopback ports of their own, so a test sends
// traces the way a user's collector gets them and reads back what Jaeger
// stored. Jaeger is built once per machine from tools/jaeger (a module
// of its own, so st's go.mod never names it) into the e2e cache; the
// first build takes minutes, later runs reuse it.
package jaegertest

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// Version is the Jaeger release tools/jaeger pins.
const Version = "v1.75.0"

// build builds Jaeger once per process (and, through the cache, once
// per machine).
var build = sync.OnceValues(func() (string, error) {
	cache := os.Getenv("ST_E2E_CACHE")
	if cache == "" {
		c, err := os.UserCacheDir()
		if err != nil {
			return "", err
		}
		cache = filepath.Join(c, "st-e2e")
	}
	dir := filepath.Join(cache, "jaeger-"+Version)
	bin := filepath.Join(dir, "jaeger")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	lock := flock.New(filepath.Join(dir, ".build.lock"))
	if err := lock.Lock(); err != nil {
		return "", err
	}
	defer func() { _ = lock.Unlock() }() // closing the lock file releases it anyway
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	_, file, _, _ := runtime.Caller(0)
	tools := filepath.Join(filepath.Dir(file), "..", "..", "tools", "jaeger")
	cmd := exec.Command("go", "build", "-o", bin+".tmp", "github.com/jaegertracing/jaeger/cmd/jaeger")
	cmd.Dir = tools
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building Jaeger %s in tools/jaeger: %v\n%s", Version, err, out)
	}
	return bin, os.Rename(bin+".tmp", bin)
})

// Jaeger is one running Jaeger.
type Jaeger struct {
	// OTLP is the base URL of its OTLP/HTTP receiver, what
	// OTEL_EXPORTER_OTLP_ENDPOINT names.
	OTLP  string
	query string
	cmd   *exec.Cmd
	log   *strings.Builder
	t     testing.TB
}

// Start runs a Jaeger for t, stopped when t ends; in -short mode the
// test is skipped (the first build takes minutes). otlpAddr is where its
// receiver listens ("" picks a free port): a test can point an export
// at it before it runs.
func Start(t testing.TB, otlpAddr string) *Jaeger {
	t.Helper()
	if testing.Short() {
		t.Skip("Jaeger tests skipped in -short mode")
	}
	bin, err := build()
	if err != nil {
		t.Fatal(err)
	}
	if otlpAddr == "" {
		otlpAddr = FreeAddr(t)
	}
	queryAddr, grpcAddr := FreeAddr(t), FreeAddr(t)
	config := filepath.Join(t.TempDir(), "jaeger.yaml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(configYAML, queryAddr, grpcAddr, otlpAddr)), 0o644); err != nil {
		t.Fatal(err)
	}
	j := &Jaeger{OTLP: "http://" + otlpAddr, query: "http://" + queryAddr, log: &strings.Builder{}, t: t}
	j.cmd = exec.Command(bin, "--config", "file:"+config)
	j.cmd.Stdout, j.cmd.Stderr = j.log, j.log
	if err := j.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(j.Stop)
	deadline := time.Now().Add(60 * time.Second)
	for {
		res, err := http.Get(j.query + "/api/services")
		if err == nil {
			_ = res.Body.Close() // a probe
			if res.StatusCode == 200 && ready(otlpAddr) {
				return j
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("Jaeger did not start within a minute:\n%s", j.log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func ready(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	_ = c.Close() // a probe
	return true
}

// Stop stops Jaeger (its traces are in memory: gone with it).
func (j *Jaeger) Stop() {
	if j.cmd.Process != nil && j.cmd.ProcessState == nil {
		_ = j.cmd.Process.Kill() // the test is done with it
		_ = j.cmd.Wait()         // reaps it; killed is its expected end
	}
}

// FreeAddr is a loopback address no one listens on now.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }() // only its port was wanted
	return l.Addr().String()
}

// Span is a span as Jaeger's query API returns it.
type Span struct {
	SpanID        string `json:"spanID"`
	OperationName string `json:"operationName"`
	References    []struct {
		RefType string `json:"refType"`
		SpanID  string `json:"spanID"`
	} `json:"references"`
	StartTime int64 `json:"startTime"` // µs
	Duration  int64 `json:"duration"`  // µs
	Tags      []Tag `json:"tags"`
	Logs      []struct {
		Fields []Tag `json:"fields"`
	} `json:"logs"`
}

// Tag is one attribute of a span.
type Tag struct {
	Key   string `json:"key"`
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// Parent is the span's parent's ID, "" for a root.
func (s Span) Parent() string {
	for _, r := range s.References {
		if r.RefType == "CHILD_OF" {
			return r.SpanID
		}
	}
	return ""
}

// Tag returns the value of the span's tag key as a string ("" if none).
func (s Span) Tag(key string) string {
	for _, t := range s.Tags {
		if t.Key == key {
			switch v := t.Value.(type) {
			case string:
				return v
			case float64:
				return strconv.FormatFloat(v, 'f', -1, 64)
			default:
				return fmt.Sprint(v)
			}
		}
	}
	return ""
}

// Trace waits up to wait for the trace traceID (32 hex digits) to hold
// at least minSpans spans, and returns them.
func (j *Jaeger) Trace(traceID string, minSpans int, wait time.Duration) ([]Span, error) {
	deadline := time.Now().Add(wait)
	var last []Span
	for {
		spans, err := j.fetch(traceID)
		if err == nil && len(spans) >= minSpans {
			return spans, nil
		}
		if err == nil {
			last = spans
		}
		if time.Now().After(deadline) {
			return last, fmt.Errorf("trace %s: %d spans after %v (want %d); last error %v", traceID, len(last), wait, minSpans, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (j *Jaeger) fetch(traceID string) ([]Span, error) {
	res, err := http.Get(j.query + "/api/traces/" + traceID)
	if err != nil {
		return nil, err
	}
	defer func() { _ = res.Body.Close() }() // read whole below
	if res.StatusCode == 404 {
		return nil, nil
	}
	var body struct {
		Data []struct {
			Spans []Span `json:"spans"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		return nil, err
	}
	var spans []Span
	for _, d := range body.Data {
		spans = append(spans, d.Spans...)
	}
	return spans, nil
}

// configYAML runs only what the tests use: the OTLP/HTTP receiver, the
// in-memory store and the query API.
const configYAML = `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: mem
    http:
      endpoint: %s
    grpc:
      endpoint: %s
  jaeger_storage:
    backends:
      mem:
        memory:
          max_traces: 1000
receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  jaeger_storage_exporter:
    trace_storage: mem
`
