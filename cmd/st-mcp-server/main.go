// Command st-mcp-server is st's MCP server built on the official MCP SDK.
// st-mcp, the front clients start, execs it at the first message it
// cannot answer itself, handing it the session (or at once in channel
// mode); it is installed next to st-mcp and not meant to be run alone,
// though it serves a session from its start too.
package main

import (
	"os"

	// The heap's start on one huge page: fewer page faults at every
	// start (see the package).
	_ "github.com/smalltalk-go/st/internal/heapstart"

	"github.com/smalltalk-go/st/mcp"
	"github.com/smalltalk-go/st/mcp/front"
)

func main() {
	os.Exit(mcp.Main(front.OSProcess(), nil))
}
