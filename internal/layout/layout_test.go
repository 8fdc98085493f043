package layout

import (
	"errors"
	"os"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/internal/sterr"
)

func TestValidAgent(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"alice", true},
		{"a", true},
		{"7", true},
		{"a..b", true},
		{"a--b", true},
		{"persona.worker-1.child-7", true},
		{"context", true},
		{"outbox", true},
		{strings.Repeat("a", 500), true},
		{"", false},
		{"..", false},
		{".", false},
		{"../x", false},
		{"a/b", false},
		{"/etc", false},
		{`a\b`, false},
		{"a\x00b", false},
		{"Alice", false},
		{"BOB", false},
		{"-alice", false},
		{"alice-", false},
		{".alice", false},
		{"alice.", false},
		{"a b", false},
		{"a_b", false},
		{"é", false},
		{"alice\n", false},
	}
	for _, tt := range tests {
		if got := ValidAgent(tt.name); got != tt.want {
			t.Errorf("ValidAgent(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
	for _, r := range []string{"inbox", "archive", "resources", "status", "name", "offline", "available", "busy", "away", "dnd", "unknown", "members", "agents", "overview"} {
		if ValidAgent(r) {
			t.Errorf("reserved %q accepted", r)
		}
	}
}

func TestCheckAgent(t *testing.T) {
	err := CheckAgent("")
	if err == nil || err.Error() != "invalid agent name: " || sterr.CodeOf(err) != sterr.InvalidIdentity {
		t.Errorf("CheckAgent(\"\") = %v", err)
	}
	if err := CheckAgent("BOB"); err == nil || err.Error() != "invalid agent name: BOB" {
		t.Errorf("CheckAgent(BOB) = %v", err)
	}
	if err := CheckAgent("bob"); err != nil {
		t.Errorf("CheckAgent(bob) = %v", err)
	}
}

func FuzzValidAgent(f *testing.F) {
	for _, s := range []string{"alice", "a..b", "..", "a/b", "inbox", "-x", "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !ValidAgent(name) {
			return
		}
		if name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") || name[0] == '.' || name[0] == '-' {
			t.Fatalf("accepted unsafe %q", name)
		}
		if filepath.Base(name) != name || filepath.Clean(name) != name || !filepath.IsLocal(name) {
			t.Fatalf("%q is not a single clean local path element", name)
		}
		if strings.ToLower(name) != name || reserved(name) {
			t.Fatalf("accepted %q", name)
		}
	})
}

// envOf makes a lookup over a fixed map.
func envOf(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestEnvRoot(t *testing.T) {
	tests := []struct {
		env    map[string]string
		want   string
		notice string
	}{
		{map[string]string{"ST_ROOT": "/r", "COORD_ROOT": "/c", "HOME": "/h"}, "/r", ""},
		{map[string]string{"ST_ROOT": "", "COORD_ROOT": "/c", "HOME": "/h"}, "/c", "[smalltalk] honoring COORD_ROOT — migrate to ST_ROOT when convenient\n"},
		{map[string]string{"HOME": "/h"}, "/h/.local/state/smalltalk", ""},
		{map[string]string{"HOME": ""}, ".local/state/smalltalk", ""},
		{map[string]string{"ST_ROOT": "rel/../x/", "HOME": "/h"}, "rel/../x/", ""}, // verbatim
	}
	for _, tt := range tests {
		var notices strings.Builder
		e := NewEnv(envOf(tt.env), &notices)
		if got := e.Root(); got != tt.want {
			t.Errorf("Root() with %v = %q, want %q", tt.env, got, tt.want)
		}
		e.Root()
		if got := notices.String(); got != tt.notice {
			t.Errorf("notices with %v = %q, want %q (once)", tt.env, got, tt.notice)
		}
	}
}

func TestEnvHomeUnset(t *testing.T) {
	// The fallback is the account's passwd entry, not $HOME: the test
	// runs with whatever HOME its caller set (a container's -e HOME=...).
	u, err := user.Current()
	if err != nil || u.HomeDir == "" {
		t.Skip("no account home:", err)
	}
	home := u.HomeDir
	e := NewEnv(envOf(map[string]string{}), nil)
	if got := e.Home(); got != home {
		t.Errorf("Home() with HOME unset = %q, want %q", got, home)
	}
	if got, want := e.ConfigDir(), filepath.Join(home, ".config", "smalltalk"); got != want {
		t.Errorf("ConfigDir() = %q, want %q", got, want)
	}
	e = NewEnv(envOf(map[string]string{"HOME": ""}), nil)
	if got := e.ConfigDir(); got != ".config/smalltalk" {
		t.Errorf("ConfigDir() with HOME empty = %q", got)
	}
	e = NewEnv(envOf(map[string]string{"HOME": "/h", "ST_CONFIG": "/cfg"}), nil)
	if got := e.ConfigDir(); got != "/cfg" {
		t.Errorf("ConfigDir() = %q", got)
	}
}

func TestEnvAgentName(t *testing.T) {
	const (
		nID    = "[smalltalk] honoring ST_IDENTITY — migrate to ST_AGENT when convenient\n"
		nCoord = "[smalltalk] honoring COORD_IDENTITY — migrate to ST_AGENT when convenient\n"
	)
	tests := []struct {
		env    map[string]string
		want   string
		notice string
		err    error
	}{
		{map[string]string{"ST_AGENT": "a", "ST_IDENTITY": "b", "COORD_IDENTITY": "c"}, "a", "", nil},
		{map[string]string{"ST_AGENT": "", "ST_IDENTITY": "b", "COORD_IDENTITY": "c"}, "b", nID, nil},
		{map[string]string{"ST_IDENTITY": "", "COORD_IDENTITY": "c"}, "c", nCoord, nil},
		{map[string]string{"ST_AGENT": "BAD"}, "BAD", "", nil}, // unvalidated here
		{map[string]string{}, "", "", sterr.ErrIdentityRequired},
		{map[string]string{"ST_AGENT": "", "ST_IDENTITY": ""}, "", "", sterr.ErrIdentityRequired},
	}
	for _, tt := range tests {
		var notices strings.Builder
		e := NewEnv(envOf(tt.env), &notices)
		for range 3 {
			got, err := e.AgentName()
			if got != tt.want || !errors.Is(err, tt.err) {
				t.Errorf("AgentName() with %v = %q, %v; want %q, %v", tt.env, got, err, tt.want, tt.err)
			}
		}
		if got := notices.String(); got != tt.notice {
			t.Errorf("notices with %v = %q, want %q", tt.env, got, tt.notice)
		}
	}
	want := "agent required — set $ST_AGENT (or the legacy $ST_IDENTITY) or pass --from <agent>"
	if sterr.ErrIdentityRequired.Error() != want || sterr.CodeOf(sterr.ErrIdentityRequired) != sterr.IdentityRequired {
		t.Errorf("ErrIdentityRequired = %v", sterr.ErrIdentityRequired)
	}
	// A nil notice writer discards.
	if _, err := NewEnv(envOf(map[string]string{"ST_IDENTITY": "b"}), nil).AgentName(); err != nil {
		t.Error(err)
	}
}

func isDir(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }

func TestResolve(t *testing.T) {
	notHosted := func(id string) string {
		return "agent folder missing for " + id + " — create it: mkdir -p $ST_ROOT/" + id + "/{inbox,archive}"
	}
	tests := []struct {
		name     string
		setup    []string // folders to create under the root
		explicit string
		policy   Policy
		env      map[string]string
		want     string
		err      string
		created  []string
		absent   []string
	}{
		{name: "env creates folders", env: map[string]string{"ST_AGENT": "alice"}, want: "alice", created: []string{"alice/inbox", "alice/archive"}},
		{name: "env invalid", env: map[string]string{"ST_AGENT": "Alice"}, err: "invalid agent name: Alice", absent: []string{"Alice"}},
		{name: "env missing", err: sterr.ErrIdentityRequired.Message},
		{name: "explicit beats env", explicit: "bob", policy: Create, env: map[string]string{"ST_AGENT": "alice"}, want: "bob", created: []string{"bob/inbox", "bob/archive"}, absent: []string{"alice"}},
		{name: "strict missing", explicit: "ghost", policy: Strict, err: notHosted("ghost"), absent: []string{"ghost"}},
		{name: "strict inbox only", setup: []string{"bob/inbox"}, explicit: "bob", policy: Strict, err: notHosted("bob"), absent: []string{"bob/archive"}},
		{name: "strict both", setup: []string{"bob/inbox", "bob/archive"}, explicit: "bob", policy: Strict, want: "bob"},
		{name: "lenient inbox only", setup: []string{"bob/inbox"}, explicit: "bob", policy: Lenient, want: "bob", absent: []string{"bob/archive"}},
		{name: "lenient archive only", setup: []string{"bob/archive"}, explicit: "bob", policy: Lenient, want: "bob", absent: []string{"bob/inbox"}},
		{name: "lenient none", setup: []string{"bob"}, explicit: "bob", policy: Lenient, err: notHosted("bob")},
		{name: "grammar only", explicit: "ghost", policy: GrammarOnly, want: "ghost", absent: []string{"ghost"}},
		{name: "invalid wins over missing", explicit: "BAD", policy: Strict, err: "invalid agent name: BAD"},
		{name: "invalid with create", explicit: "../x", policy: Create, err: "invalid agent name: ../x", absent: []string{"../x"}},
		{name: "reserved", explicit: "inbox", policy: Create, err: "invalid agent name: inbox", absent: []string{"inbox"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "root")
			for _, d := range tt.setup {
				if err := os.MkdirAll(filepath.Join(root, d), 0o777); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Resolve(root, tt.explicit, tt.policy, NewEnv(envOf(tt.env), nil))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
			} else if err != nil || got != tt.want {
				t.Fatalf("Resolve = %q, %v; want %q", got, err, tt.want)
			}
			for _, d := range tt.created {
				if !isDir(filepath.Join(root, d)) {
					t.Errorf("%s not created", d)
				}
			}
			for _, d := range tt.absent {
				if _, err := os.Lstat(filepath.Join(root, d)); err == nil {
					t.Errorf("%s exists", d)
				}
			}
		})
	}
}

func TestApplyStrictFileNotDir(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "bob", "archive"), 0o777)
	os.WriteFile(filepath.Join(root, "bob", "inbox"), nil, 0o666)
	if err := Apply(root, "bob", Strict); sterr.CodeOf(err) != sterr.IdentityNotHosted {
		t.Errorf("inbox as a file: %v", err)
	}
	if err := Apply(filepath.Join(root, "missing"), "bob", Strict); sterr.CodeOf(err) != sterr.IdentityNotHosted {
		t.Errorf("missing root: %v", err)
	}
}

func TestDecimal(t *testing.T) {
	tests := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"250", 250, true},
		{" 0.5\t", 0.5, true},
		{"12.", 12, true},
		{".25", 0.25, true},
		{"0", 0, true},
		{"", 0, false},
		{".", 0, false},
		{"1_000", 0, false},
		{"0x1p4", 0, false},
		{"0x10", 0, false},
		{"1e3", 0, false},
		{"+5", 0, false},
		{"-5", 0, false},
		{"Inf", 0, false},
		{"NaN", 0, false},
		{"1.2.3", 0, false},
		{"١٢", 0, false},
	}
	for _, tt := range tests {
		n, ok := Decimal(tt.in)
		if n != tt.want || ok != tt.ok {
			t.Errorf("Decimal(%q) = %v, %v; want %v, %v", tt.in, n, ok, tt.want, tt.ok)
		}
	}
}

// A plugin option stands in for ST_AGENT and ST_ROOT only when the
// environment leaves them unset or empty.
func TestEnvPluginOptions(t *testing.T) {
	tests := []struct {
		env         map[string]string
		agent, root string
	}{
		{map[string]string{"ST_AGENT": "env", "ST_PLUGIN_AGENT": "opt", "ST_ROOT": "/env", "ST_PLUGIN_ROOT": "/opt", "HOME": "/h"}, "env", "/env"},
		{map[string]string{"ST_PLUGIN_AGENT": "opt", "ST_PLUGIN_ROOT": "/opt", "HOME": "/h"}, "opt", "/opt"},
		{map[string]string{"ST_AGENT": "", "CLAUDE_PLUGIN_OPTION_AGENT": "claude", "CLAUDE_PLUGIN_OPTION_ROOT": "/c", "HOME": "/h"}, "claude", "/c"},
		{map[string]string{"ST_PLUGIN_AGENT": "", "ST_PLUGIN_ROOT": "", "HOME": "/h"}, "", "/h/.local/state/smalltalk"},
	}
	for _, tt := range tests {
		e := NewEnv(envOf(tt.env), nil)
		agent, _ := e.AgentName()
		if agent != tt.agent || e.Root() != tt.root || e.Get("ST_AGENT") != tt.agent {
			t.Errorf("with %v: agent %q, root %q; want %q, %q", tt.env, agent, e.Root(), tt.agent, tt.root)
		}
	}
}
