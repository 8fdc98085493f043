package dashboard

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
)

func TestCheckAddr(t *testing.T) {
	tests := []struct {
		addr     string
		remote   bool
		loopback bool
		err      string
	}{
		{"127.0.0.1:8340", false, true, ""},
		{"127.0.0.2:0", false, true, ""},
		{"localhost:80", false, true, ""},
		{"[::1]:8340", false, true, ""},
		{"0.0.0.0:8340", false, false, "refusing to serve on 0.0.0.0:8340: not a loopback address (pass --allow-remote"},
		{":8340", false, false, "refusing to serve on :8340"},
		{"192.168.1.5:8340", false, false, "not a loopback address"},
		{"example.com:8340", false, false, "not a loopback address"},
		{"0.0.0.0:8340", true, false, ""},
		{"127.0.0.1", false, false, "--addr must be HOST:PORT, got: 127.0.0.1"},
		{"127.0.0.1:http", false, false, "--addr must be HOST:PORT"},
		{"127.0.0.1:70000", false, false, "--addr must be HOST:PORT"},
	}
	for _, tt := range tests {
		loopback, err := checkAddr(tt.addr, tt.remote)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if loopback != tt.loopback || !strings.Contains(got, tt.err) || (tt.err == "") != (err == nil) {
			t.Errorf("checkAddr(%q, %v) = %v, %v; want %v, %q", tt.addr, tt.remote, loopback, err, tt.loopback, tt.err)
		}
	}
}

// TestMainServesUntilSignal: Main prints the URL, serves the page on
// loopback, refuses a foreign Host, and exits 0 on the first signal even
// with a stream open.
func TestMainServesUntilSignal(t *testing.T) {
	root := writeStore(t, agentFolders)
	var stdout, stderr bytes.Buffer
	sig := make(chan os.Signal, 1)
	ready := make(chan string, 1)
	code := make(chan int, 1)
	env := map[string]string{"ST_ROOT": root}
	go func() {
		code <- Main(Process{
			Name: "st dashboard", Args: []string{"--addr", "127.0.0.1:0"},
			Env:    layout.NewEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, io.Discard),
			Stdout: &stdout, Stderr: &stderr, Signals: sig,
			Ready: func(u string) { ready <- u },
		})
	}()
	var url string
	select {
	case url = <-ready:
	case c := <-code:
		t.Fatalf("Main = %d: %s", c, stderr.String())
	}
	if !strings.HasPrefix(url, "http://127.0.0.1:") || stdout.String() != url+"\n" {
		t.Fatalf("url %q, stdout %q", url, stdout.String())
	}
	res, err := http.Get(url)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("GET %s = %v, %v", url, res, err)
	}
	body, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(body), `href="/agent/alice"`) {
		t.Errorf("page lacks alice")
	}
	req, _ := http.NewRequest("GET", url, nil)
	req.Host = "attacker.example"
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusMisdirectedRequest {
		t.Errorf("foreign Host = %v, %v", res, err)
	}
	stream, err := http.Get(url + "events")
	if err != nil {
		t.Fatal(err)
	}
	defer stream.Body.Close()
	sig <- syscall.SIGINT
	select {
	case c := <-code:
		if c != 0 || stderr.Len() != 0 {
			t.Errorf("Main = %d, stderr %q", c, stderr.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still serving 5s after SIGINT")
	}
}

func TestMainRefusesRemote(t *testing.T) {
	var stderr bytes.Buffer
	c := Main(Process{Name: "st", Args: []string{"--addr", "0.0.0.0:0"}, Env: layout.NewEnv(func(string) (string, bool) { return "", false }, nil),
		Stdout: io.Discard, Stderr: &stderr, Signals: make(chan os.Signal)})
	if c != 1 || stderr.String() != "st: refusing to serve on 0.0.0.0:0: not a loopback address (pass --allow-remote to let other machines in)\n" {
		t.Errorf("Main = %d, %q", c, stderr.String())
	}
}

// TestMainOpens: --open hands the URL to $BROWSER.
func TestMainOpens(t *testing.T) {
	dir := t.TempDir()
	opened := filepath.Join(dir, "opened")
	browser := filepath.Join(dir, "browser")
	os.WriteFile(browser, []byte("#!/bin/sh\necho \"$1\" > "+opened+".tmp && mv "+opened+".tmp "+opened+"\n"), 0o755)
	env := map[string]string{"ST_ROOT": filepath.Join(dir, "store"), "BROWSER": browser}
	sig := make(chan os.Signal, 1)
	ready := make(chan string, 1)
	code := make(chan int, 1)
	go func() {
		code <- Main(Process{Name: "st", Args: []string{"--addr", "127.0.0.1:0", "--open"},
			Env:    layout.NewEnv(func(k string) (string, bool) { v, ok := env[k]; return v, ok }, io.Discard),
			Stdout: io.Discard, Stderr: io.Discard, Signals: sig, Ready: func(u string) { ready <- u }})
	}()
	url := <-ready
	deadline := time.Now().Add(10 * time.Second)
	var got []byte
	for time.Now().Before(deadline) {
		if got, _ = os.ReadFile(opened); len(got) > 0 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	sig <- syscall.SIGTERM
	if c := <-code; c != 0 || string(got) != url+"\n" {
		t.Errorf("Main = %d; $BROWSER got %q, want %q", c, got, url)
	}
}
