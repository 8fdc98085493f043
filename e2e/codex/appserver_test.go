package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// codexHook is one entry of `codex app-server` hooks/list.
type codexHook struct {
	Key         string `json:"key"`
	EventName   string `json:"eventName"`
	Command     string `json:"command"`
	CurrentHash string `json:"currentHash"`
	TrustStatus string `json:"trustStatus"`
	Enabled     bool   `json:"enabled"`
}

// appServer is a `codex app-server` session over stdio.
type appServer struct {
	r      *rig
	cmd    *exec.Cmd
	cancel context.CancelFunc
	stdin  io.WriteCloser
	lines  *bufio.Scanner
	nextID int
	start  time.Time
}

// openAppServer starts `codex app-server` and initializes the session.
func (r *rig) openAppServer() *appServer {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	cmd := exec.CommandContext(ctx, codexBin, "app-server")
	cmd.Dir, cmd.Env = r.proj, r.env
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		r.t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	s := &appServer{r: r, start: time.Now(), cmd: cmd, cancel: cancel, stdin: stdin, lines: bufio.NewScanner(stdout)}
	s.lines.Buffer(make([]byte, 1<<20), 16<<20)
	s.call("initialize", map[string]any{"clientInfo": map[string]any{"name": "st-e2e", "version": "1"}})
	s.send(map[string]any{"jsonrpc": "2.0", "method": "initialized"})
	return s
}

// close ends the session; the process is killed rather than waited
// for, as nothing is left to say.
func (s *appServer) close() {
	s.r.t.Logf("app-server session: %.1fs", time.Since(s.start).Seconds())
	s.cancel()
	s.cmd.Wait()
}

func (s *appServer) send(v any) {
	data, _ := json.Marshal(v)
	fmt.Fprintf(s.stdin, "%s\n", data)
}

// call sends one request and returns its result.
func (s *appServer) call(method string, params any) json.RawMessage {
	s.r.t.Helper()
	id := s.nextID
	s.nextID++
	s.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	for s.lines.Scan() {
		var msg struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(s.lines.Bytes(), &msg) != nil || msg.ID == nil || *msg.ID != id {
			continue
		}
		if msg.Error != nil {
			s.r.t.Fatalf("app-server %s: %s", method, msg.Error)
		}
		return msg.Result
	}
	s.r.t.Fatalf("app-server: no answer to %s (%v)", method, s.lines.Err())
	return nil
}

// hooksList is Codex's own list (its warnings go to r.hookWarnings) of the hooks it found for the project,
// with the trust it gives each.
func (r *rig) hooksList() []codexHook {
	r.t.Helper()
	s := r.openAppServer()
	defer s.close()
	return s.hooksList()
}

func (s *appServer) hooksList() []codexHook {
	r := s.r
	r.t.Helper()
	res := []json.RawMessage{s.call("hooks/list", map[string]any{"cwds": []string{r.proj}})}
	var list struct {
		Data []struct {
			Hooks    []codexHook `json:"hooks"`
			Warnings []string    `json:"warnings"`
			Errors   []any       `json:"errors"`
		} `json:"data"`
	}
	if err := json.Unmarshal(res[0], &list); err != nil || len(list.Data) != 1 {
		r.t.Fatalf("hooks/list: %v: %s", err, res[0])
	}
	d := list.Data[0]
	r.hookWarnings = d.Warnings
	if len(d.Errors) > 0 {
		r.t.Errorf("hooks/list errors %v", d.Errors)
	}
	return list.Data[0].Hooks
}

// trustAll trusts every hook Codex lists, as a user does in /hooks: it
// writes each hook's current hash as its trusted_hash through Codex's
// own config writer.
func (r *rig) trustAll() {
	r.t.Helper()
	s := r.openAppServer()
	defer s.close()
	state := map[string]any{}
	for _, h := range s.hooksList() {
		state[h.Key] = map[string]any{"trusted_hash": h.CurrentHash}
	}
	s.call("config/batchWrite", map[string]any{"edits": []any{
		map[string]any{"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": state},
	}})
	for _, h := range s.hooksList() {
		if h.TrustStatus != "trusted" {
			r.t.Fatalf("after trusting: %s is %s", h.Key, h.TrustStatus)
		}
	}
}

// statusOf returns the trust Codex gives the hook whose command contains
// needle ("" when Codex does not list it).
func statusOf(list []codexHook, needle string) string {
	for _, h := range list {
		if strings.Contains(h.Command, needle) {
			return h.TrustStatus
		}
	}
	return ""
}
