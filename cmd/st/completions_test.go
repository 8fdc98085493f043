package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// script generates the completion script for shell in process.
func script(t *testing.T, shell string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	a := newApp([]string{"st", "completions", shell}, strings.NewReader(""), &stdout, &stderr,
		func(string) (string, bool) { return "", false })
	if code := run(a); code != 0 {
		t.Fatalf("st completions %s: exit %d: %s", shell, code, stderr.String())
	}
	path := filepath.Join(t.TempDir(), "st."+shell)
	if err := os.WriteFile(path, stdout.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

// bashComplete loads the bash script and completes the words (the last
// one is the word under the cursor) the way bash's programmable
// completion calls _st.
func bashComplete(t *testing.T, path string, words ...string) []string {
	t.Helper()
	driver := `source "$1"; shift
COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
_st st "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf '%s\n' "${COMPREPLY[@]}"`
	out, err := exec.Command("bash", append([]string{"-c", driver, "driver", path}, words...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

func TestBashCompletion(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash")
	}
	path := script(t, "bash")
	tests := []struct {
		words []string
		want  []string
	}{
		{[]string{"st", "con"}, []string{"context"}},
		{[]string{"st", "status", "--set", ""}, []string{"offline", "available", "busy", "away", "dnd"}},
		{[]string{"st", "status", "bob", "--set", "b"}, []string{"busy"}},
		{[]string{"st", "me"}, []string{"message", "members"}},
		{[]string{"st", "msg", "re"}, []string{"reply", "read"}},
		{[]string{"st", "message", "send", "bob", "--priority", ""}, []string{"low", "normal", "high"}},
		{[]string{"st", "message", "send", "--subject", "--priority", "x", "--pr"}, []string{"--priority"}},
		{[]string{"st", "sync", ""}, []string{"serve", "push", "pull", "sweep", "forget"}},
		{[]string{"st", "sync", "serve", ""}, []string{"push", "pull"}},
		{[]string{"st", "sync", "--all", "p"}, []string{"push", "pull"}},
		{[]string{"st", "sync", "push", "--"}, []string{"--all"}},
		{[]string{"st", "gc", ""}, []string{"serve"}},
		{[]string{"st", "gc", "serve", "--i"}, []string{"--interval"}},
		{[]string{"st", "completions", ""}, []string{"fish", "bash", "zsh"}},
		{[]string{"st", "context", "append", "--d"}, []string{"--decision"}},
		{[]string{"st", "--v"}, []string{"--version"}},
	}
	for _, tt := range tests {
		got := bashComplete(t, path, tt.words...)
		if !slices.Equal(got, tt.want) {
			t.Errorf("complete %q = %q, want %q", tt.words, got, tt.want)
		}
	}
}

func TestZshAndFishScriptsParse(t *testing.T) {
	for _, shell := range []string{"zsh", "fish"} {
		if _, err := exec.LookPath(shell); err != nil {
			t.Logf("no %s: skipped", shell)
			continue
		}
		if out, err := exec.Command(shell, "-n", script(t, shell)).CombinedOutput(); err != nil {
			t.Errorf("%s -n: %v\n%s", shell, err, out)
		}
	}
}

func TestFishCompletion(t *testing.T) {
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("no fish")
	}
	path := script(t, "fish")
	complete := func(line string) []string {
		out, err := exec.Command("fish", "--no-config", "-c", "source $argv[1]; complete -C $argv[2]", path, line).CombinedOutput()
		if err != nil {
			t.Fatalf("fish: %v\n%s", err, out)
		}
		var words []string
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			w, _, _ := strings.Cut(l, "\t")
			words = append(words, w)
		}
		return words
	}
	if got, want := complete("st con"), []string{"context"}; !slices.Equal(got, want) {
		t.Errorf("st con → %q, want %q", got, want)
	}
	if got, want := complete("st status --set "), []string{"available", "away", "busy", "dnd", "offline"}; !slices.Equal(got, want) {
		t.Errorf("st status --set → %q, want %q", got, want)
	}
}

func TestZshCompletion(t *testing.T) {
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("no zsh")
	}
	path := script(t, "zsh")
	// compadd and compdef exist only inside the completion system; stubs
	// print what the function would offer.
	driver := `compdef() { :; }; compadd() { shift; print -l -- "$@"; }
source "$1"; shift; words=("$@"); CURRENT=$#; _st`
	complete := func(words ...string) []string {
		out, err := exec.Command("zsh", append([]string{"-fc", driver, "driver", path}, words...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("zsh: %v\n%s", err, out)
		}
		return strings.Fields(string(out))
	}
	if got, want := complete("st", "context", ""), []string{"read", "write", "append"}; !slices.Equal(got, want) {
		t.Errorf("st context → %q, want %q", got, want)
	}
	if got, want := complete("st", "status", "--set", ""), []string{"offline", "available", "busy", "away", "dnd"}; !slices.Equal(got, want) {
		t.Errorf("st status --set → %q, want %q", got, want)
	}
}
