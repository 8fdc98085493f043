// Command st-mcp is st's MCP stdio server as clients start it (`st mcp
// [--channel]` runs the same in st). It is the front (package mcp/front):
// it answers the session's opening itself and links nothing of the MCP
// SDK, which is large; at the first message that needs the SDK it execs
// st-mcp-server, installed next to it, which takes the session over.
package main

import (
	"os"

	// The heap's start on one huge page: fewer page faults at every
	// start (see the package).
	_ "github.com/smalltalk-go/st/internal/heapstart"

	"github.com/smalltalk-go/st/mcp/front"
)

func main() {
	os.Exit(front.Main(front.OSProcess()))
}
