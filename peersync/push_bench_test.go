package peersync

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sshtest"
	"github.com/smalltalk-go/st/status"
)

// A host's push of one rewrite of its agent's status to a hub over the
// real sshd, with an ssh connection per rsync (st sync push) and on one
// shared connection (st sync serve's): what a push costs, the read of
// the hub's host records included.
func BenchmarkSSHPush(b *testing.B) {
	srv := sshtest.ForTest(b)
	for _, shared := range []bool{false, true} {
		b.Run(map[bool]string{false: "own-connection", true: "shared-connection"}[shared], func(b *testing.B) {
			s := &Syncer{Root: filepath.Join(b.TempDir(), "root"), PathEnv: os.Getenv("PATH"),
				Stdout: io.Discard, Log: io.Discard, Host: "hosta", StateDir: b.TempDir()}
			s.RSH = srv.RSH()
			if shared {
				mux := newSSHMux(srv.RSH())
				defer mux.close()
				startMaster(b, mux.master(srv.RSH()), srv.User+"@127.0.0.1")
				s.RSH = mux.client(srv.RSH())
			}
			t, err := fsutil.OpenOrCreate(s.Root)
			if err != nil {
				b.Fatal(err)
			}
			defer t.Close()
			if err := t.MkdirAll("alice"); err != nil {
				b.Fatal(err)
			}
			if err := fleet.MarkHome(s.StateDir, s.Root, "alice", time.Now()); err != nil {
				b.Fatal(err)
			}
			hub := srv.Spec(filepath.Join(b.TempDir(), "hub"))
			b.ResetTimer()
			for i := range b.N {
				if err := status.Set(t, "alice", []string{"busy", "away"}[i%2]); err != nil {
					b.Fatal(err)
				}
				if err := s.Push(hub); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// startMaster runs the ssh connection master that rsh's clients share,
// until the benchmark ends, and waits for its socket.
func startMaster(b *testing.B, rsh, dest string) {
	ctx, cancel := context.WithCancel(context.Background())
	words := shellWords(rsh)
	cmd := exec.CommandContext(ctx, words[0], append(words[1:], "-N", dest)...)
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cancel(); _ = cmd.Wait() })
	check := exec.Command(words[0], append(words[1:], "-O", "check", dest)...)
	for range 100 {
		if exec.Command(check.Path, check.Args[1:]...).Run() == nil {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.Fatal("the ssh master did not start")
}
