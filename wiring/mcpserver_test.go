package wiring

import (
	"testing"

	"github.com/smalltalk-go/st/mcp/front"
)

// The channel entries st writes name the program st-mcp execs: the two
// names must not part.
func TestChannelBinaryIsTheFrontsServer(t *testing.T) {
	if MCPChannelBinary != front.ServerBinary {
		t.Errorf("MCPChannelBinary %q, the front execs %q", MCPChannelBinary, front.ServerBinary)
	}
	if MCPBinaryFor(true) != MCPChannelBinary || MCPBinaryFor(false) != MCPBinary {
		t.Errorf("MCPBinaryFor: %q with channel, %q without", MCPBinaryFor(true), MCPBinaryFor(false))
	}
}
