package reserve

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
)

var t0 = time.UnixMilli(1_800_000_000_000)

func openTree(t *testing.T) *fsutil.Tree {
	t.Helper()
	tr, err := fsutil.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tr.Close() })
	return tr
}

func req(agent, mode string, patterns ...string) Request {
	return Request{Agent: agent, Repo: Where{Top: "/r"}, Patterns: patterns, Mode: mode, Reason: "why " + agent}
}

func TestReserveConflicts(t *testing.T) {
	tests := []struct {
		name       string
		held, want Request
		granted    bool
	}{
		{"exclusive vs exclusive", req("bob", Exclusive, "src/**"), req("amy", Exclusive, "src/a.go"), false},
		{"exclusive vs shared", req("bob", Shared, "src/**"), req("amy", Exclusive, "src/a.go"), false},
		{"shared vs exclusive", req("bob", Exclusive, "src/**"), req("amy", Shared, "src/a.go"), false},
		{"shared vs shared", req("bob", Shared, "src/**"), req("amy", Shared, "src/a.go"), true},
		{"disjoint", req("bob", Exclusive, "src/**"), req("amy", Exclusive, "lib/**"), true},
		{"own", req("amy", Exclusive, "src/**"), req("amy", Exclusive, "src/a.go"), true},
		{"other repo", Request{Agent: "bob", Repo: Where{Top: "/other"}, Patterns: []string{"src/**"}}, req("amy", Exclusive, "src/**"), true},
		{"all or nothing", req("bob", Exclusive, "lib/x.go"), req("amy", Exclusive, "src/", "lib/*.go"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := openTree(t)
			ctx := context.Background()
			if _, err := Reserve(ctx, tr, tt.held, t0); err != nil {
				t.Fatal(err)
			}
			got, err := Reserve(ctx, tr, tt.want, t0.Add(time.Minute))
			if tt.granted {
				if err != nil || len(got) != len(tt.want.Patterns) {
					t.Fatalf("Reserve = %v, %v; want a grant", got, err)
				}
				return
			}
			if sterr.CodeOf(err) != Conflict {
				t.Fatalf("Reserve = %v, %v; want a conflict", got, err)
			}
			for _, s := range []string{"bob holds", "until ", "why bob", "st message send bob", "59m0s left"} {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("conflict %q does not say %q", err, s)
				}
			}
			if n := len(List(tr, t0.Add(time.Minute))); n != 1 {
				t.Errorf("%d reservations after a refusal, want only the holder's", n)
			}
		})
	}
}

func TestExpiry(t *testing.T) {
	tr := openTree(t)
	ctx := context.Background()
	r := req("bob", Exclusive, "src/**")
	r.TTL = 10 * time.Minute
	held, err := Reserve(ctx, tr, r, t0)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := Scan(tr, t0.Add(9*time.Minute)).Holder("amy", Where{Top: "/r"}, "src/a.go"); !ok {
		t.Fatal("no holder before expiry")
	}
	later := t0.Add(10 * time.Minute)
	if _, ok := Scan(tr, later).Holder("amy", Where{Top: "/r"}, "src/a.go"); ok {
		t.Fatal("an expired reservation still holds")
	}
	if _, err := Reserve(ctx, tr, req("amy", Exclusive, "src/a.go"), later); err != nil {
		t.Fatalf("grant after expiry: %v", err)
	}
	// The grant removed the expired file.
	if _, err := tr.Stat("bob/reservations/" + held[0].ID + ".json"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("expired reservation file still there: %v", err)
	}
}

func TestReleaseIdempotent(t *testing.T) {
	tr := openTree(t)
	ctx := context.Background()
	if _, err := Reserve(ctx, tr, req("bob", Exclusive, "src/**", "a.go"), t0); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{1, 0} {
		got, err := Release(ctx, tr, "bob", Where{Top: "/r"}, []string{"src/"}, t0)
		if err != nil || len(got) != want {
			t.Fatalf("release #%d = %v, %v; want %d released", i+1, got, err, want)
		}
	}
	if _, err := Reserve(ctx, tr, req("amy", Exclusive, "src/x.go"), t0); err != nil {
		t.Fatalf("grant after release: %v", err)
	}
	if _, err := Reserve(ctx, tr, req("amy", Exclusive, "a.go"), t0); sterr.CodeOf(err) != Conflict {
		t.Fatalf("a.go was not released, yet: %v", err)
	}
	got, err := Release(ctx, tr, "bob", Where{}, nil, t0)
	if err != nil || len(got) != 1 || got[0].Pattern != "a.go" {
		t.Fatalf("release all = %v, %v", got, err)
	}
	if got, err := Release(ctx, tr, "nobody", Where{}, nil, t0); err != nil || len(got) != 0 {
		t.Fatalf("release by an agent holding nothing = %v, %v", got, err)
	}
}

func TestRenew(t *testing.T) {
	tr := openTree(t)
	ctx := context.Background()
	if _, err := Reserve(ctx, tr, req("bob", Exclusive, "src/**"), t0); err != nil {
		t.Fatal(err)
	}
	r := req("bob", Shared, "src/")
	r.TTL = 3 * time.Hour
	if _, err := Reserve(ctx, tr, r, t0.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	list := List(tr, t0.Add(2*time.Hour))
	if len(list) != 1 || list[0].Mode != Shared {
		t.Fatalf("after renewal: %+v, want one shared reservation", list)
	}
}

// TestSyncConflict: two machines granted overlapping exclusive
// reservations between syncs; both hold, both are marked.
func TestSyncConflict(t *testing.T) {
	a, b := openTree(t), openTree(t)
	ctx := context.Background()
	if _, err := Reserve(ctx, a, req("amy", Exclusive, "src/**"), t0); err != nil {
		t.Fatal(err)
	}
	if _, err := Reserve(ctx, b, req("bob", Exclusive, "src/a.go"), t0); err != nil {
		t.Fatal(err)
	}
	// What st sync does: copy the other side's files.
	if err := os.CopyFS(a.Base(), os.DirFS(b.Base())); err != nil {
		t.Fatal(err)
	}
	list := List(a, t0)
	bad := Conflicts(list)
	if len(list) != 2 || len(bad) != 2 {
		t.Fatalf("list %+v conflicts %v; want both marked", list, bad)
	}
	if h, ok := Scan(a, t0).Holder("amy", Where{Top: "/r"}, "src/a.go"); !ok || h.Agent != "bob" {
		t.Fatalf("amy's edit of src/a.go: holder %+v %v, want bob", h, ok)
	}
}

func TestBrokenFilesIgnored(t *testing.T) {
	tr := openTree(t)
	if err := tr.MkdirAll("bob/reservations"); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"1-x.json": "{not json", "2-y.json": "", "3-z.json": `{"agent":"eve","repo":"/r","pattern":"**","mode":"exclusive","expires":"2100-01-01T00:00:00Z"}`} {
		if err := tr.WriteAtomic("bob/reservations/"+name, []byte(data)); err != nil {
			t.Fatal(err)
		}
	}
	if l := List(tr, t0); len(l) != 0 {
		t.Fatalf("broken or misplaced files listed: %+v", l)
	}
}

func TestInvalidRequest(t *testing.T) {
	tr := openTree(t)
	ctx := context.Background()
	for _, r := range []Request{
		{Agent: "a", Repo: Where{Top: "/r"}, Patterns: []string{"[x]"}},
		{Agent: "a", Repo: Where{Top: "/r"}},
		{Agent: "a", Repo: Where{Top: "/r"}, Patterns: []string{"x"}, Mode: "both"},
		{Agent: "a", Repo: Where{Top: "/r"}, Patterns: []string{"x"}, TTL: 8 * 24 * time.Hour},
	} {
		if _, err := Reserve(ctx, tr, r, t0); err == nil {
			t.Errorf("Reserve(%+v) succeeded", r)
		}
	}
	if names, _ := tr.ReadDirNames("."); len(names) != 0 {
		t.Fatalf("a refused request wrote %v", names)
	}
}
