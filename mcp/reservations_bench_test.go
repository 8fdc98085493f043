package mcp

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/smalltalk-go/st/reserve"
)

// BenchmarkToolReservations is st_reservations over 1,000 active
// reservations (10 agents x 100) through a running server: compare
// reserve's BenchmarkRead, the files read and nothing else.
func BenchmarkToolReservations(b *testing.B) {
	root := b.TempDir()
	if err := reserve.Populate(root, "/repo", 10, 100, false); err != nil {
		b.Fatal(err)
	}
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
	reply := func(id int) string {
		for sc.Scan() {
			if l := sc.Text(); strings.Contains(l, fmt.Sprintf(`"id":%d,`, id)) || strings.Contains(l, fmt.Sprintf(`"id":%d}`, id)) {
				return l
			}
		}
		b.Fatalf("no reply %d: %v", id, sc.Err())
		return ""
	}
	io.WriteString(inW, initLine+"\n"+initializedLine+"\n")
	reply(1)
	id := 1
	for b.Loop() {
		id++
		fmt.Fprintf(inW, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"st_reservations","arguments":{}}}`+"\n", id)
		if l := reply(id); !strings.Contains(l, "1000 active reservations") {
			b.Fatalf("reply: %.300s", l)
		}
	}
}
