package main

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/smalltalk-go/st/internal/sshtest"
)

// sshd starts a real OpenSSH server on loopback for the rest of the
// script (sshtest), points rsync at it (RSYNC_RSH) and sets $SSHPEER to
// user@127.0.0.1, so peers are $SSHPEER:PATH. Scripts guard it with
// [!sshd] skip (sshCondition). "sshd DIR" puts DIR first on the PATH of
// the commands it runs (sshd $STBINDIR: a host with st installed).
func cmdSshd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) > 1 {
		ts.Fatalf("usage: sshd [DIR]")
	}
	sessionPath := ""
	if len(args) == 1 {
		sessionPath = args[0] + ":/usr/local/bin:/usr/bin:/bin"
	}
	dir := ts.MkAbs("sshd-files")
	ts.Check(os.MkdirAll(dir, 0o700))
	srv, err := sshtest.StartWithPath(dir, sessionPath)
	ts.Check(err)
	ts.Defer(srv.Stop)
	ts.Setenv("RSYNC_RSH", srv.RSH())
	ts.Setenv("SSHPEER", srv.User+"@127.0.0.1")
}

// sshCondition is the [sshd] condition: true where sshtest can run a
// server (sshd, ssh, ssh-keygen and rsync installed), and not in -short
// mode, which skips the real sshd (each such script takes seconds).
func sshCondition(cond string) (bool, error) {
	if cond != "sshd" {
		return false, errors.New("unknown condition: " + strings.TrimSpace(cond))
	}
	if testing.Short() {
		return false, nil
	}
	_, err := sshtest.Available()
	return err == nil, nil
}
