package main

import (
	"net"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// frozenpeer listens on 127.0.0.1 and accepts connections it never
// answers, as a suspended host does, until the script ends. It sets
// $FROZENRSH to an ssh command that reaches it.
func cmdFrozenpeer(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: frozenpeer")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	held := make(chan net.Conn, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held <- c
		}
	}()
	ts.Defer(func() {
		ln.Close()
		for {
			select {
			case c := <-held:
				c.Close()
			default:
				return
			}
		}
	})
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ts.Setenv("FROZENRSH", "ssh -p "+port+" -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null")
}
