// Command st-mcp is st's MCP stdio server. Run it as `st mcp [--channel]`,
// which checks the arguments and execs this binary: the MCP SDK is large,
// and keeping it out of st keeps every other st command's start-up fast.
package main

import (
	"os"
	"time"

	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/mcp"
)

func main() {
	os.Exit(mcp.Main(process()))
}

// process describes this invocation; the only argument is --channel.
func process() mcp.Process {
	name := os.Getenv("_ST_INVOKED_AS")
	if name == "" {
		name = "st"
	}
	channel := len(os.Args) > 1 && os.Args[1] == "--channel"
	return mcp.Process{
		Name: name, Channel: channel,
		Env:   layout.NewEnv(os.LookupEnv, os.Stderr),
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr,
		Now: time.Now,
	}
}
