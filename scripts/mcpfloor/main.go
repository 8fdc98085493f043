// Command mcpfloor is the floor of an MCP stdio server's start: it
// answers each request on stdin (a line with an "id") with the next line
// of REPLIES, the bytes `st mcp` answered the same requests with, and
// exits at the end of stdin. scripts/bench times `st mcp` against it.
//
// Usage: mcpfloor REPLIES <REQUESTS
package main

import (
	"bufio"
	"bytes"
	"os"
)

func main() {
	replies, err := os.ReadFile(os.Args[1])
	if err != nil {
		os.Exit(1)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, 1<<20)
	for in.Scan() {
		if !bytes.Contains(in.Bytes(), []byte(`"id"`)) {
			continue // a notification: no answer
		}
		line, rest, _ := bytes.Cut(replies, []byte("\n"))
		replies = rest
		if _, err := os.Stdout.Write(append(line, '\n')); err != nil {
			os.Exit(1)
		}
	}
}
