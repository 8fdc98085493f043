package mcp

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"syscall"
	"testing"
	"time"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/reserve"
)

// BenchmarkToolReservations is st_reservations over 1,000 active
// reservations (10 agents x 100) through a running server, beside its
// floor: the same reservation files opened and read, nothing parsed (as
// reserve's BenchmarkRead). Compare tool to readfloor of one run:
//
//	go test ./mcp -run '^$' -bench ToolReservations -benchmem
//
// cpu-ns/op is the process's CPU time (user and system) per operation,
// less thrown about than the time by other work on a shared machine.
func BenchmarkToolReservations(b *testing.B) {
	root := b.TempDir()
	if err := reserve.Populate(root, "/repo", 10, 100, false); err != nil {
		b.Fatal(err)
	}
	b.Run("readfloor", func(b *testing.B) {
		t, err := fsutil.Open(root)
		if err != nil {
			b.Fatal(err)
		}
		defer t.Close()
		buf := make([]byte, reserve.MaxFileSize+1)
		defer reportCPU(b)()
		for b.Loop() {
			for a := 1; a <= 10; a++ {
				f, err := t.OpenFolder(fmt.Sprintf("agent%d/%s", a, reserve.Folder))
				if err != nil {
					b.Fatal(err)
				}
				names, _ := f.RegularNames()
				for _, n := range names {
					f.ReadStart(n, buf)
				}
				f.Close()
			}
		}
	})
	// list is the domain's part, what `st reservations` runs: the rest of
	// tool is the MCP server's.
	b.Run("list", func(b *testing.B) {
		t, err := fsutil.Open(root)
		if err != nil {
			b.Fatal(err)
		}
		defer t.Close()
		defer reportCPU(b)()
		for b.Loop() {
			set := reserve.Scan(t, time.Now())
			if len(set.Active) != 1000 {
				b.Fatalf("%d reservations", len(set.Active))
			}
			set.Conflicts()
		}
	})
	b.Run("tool", func(b *testing.B) {
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			Run(ctx, Config{Root: root, Agent: "alice", In: inR, Out: outW})
			outW.Close()
			close(done)
		}()
		defer func() { cancel(); inW.Close(); <-done }()
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<26)
		reply := func(id int) []byte {
			a, z := fmt.Appendf(nil, `"id":%d,`, id), fmt.Appendf(nil, `"id":%d}`, id)
			for sc.Scan() {
				if l := sc.Bytes(); bytes.Contains(l, a) || bytes.Contains(l, z) {
					return l
				}
			}
			b.Fatalf("no reply %d: %v", id, sc.Err())
			return nil
		}
		io.WriteString(inW, initLine+"\n"+initializedLine+"\n")
		reply(1)
		id := 1
		defer reportCPU(b)()
		for b.Loop() {
			id++
			fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"st_reservations","arguments":{}}}`+"\n", id)
			if l := reply(id); !bytes.Contains(l, []byte("1000 active reservations")) {
				b.Fatalf("reply: %.300s", l)
			}
		}
	})
}

// reportCPU starts counting the process's CPU time; the function it
// returns reports it per operation.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
