package wiring

// MCPBinary is the program clients run as st's MCP server (its front;
// `st mcp` runs the same front in st).
const MCPBinary = "st-mcp"

// MCPServer is the command line a client runs for st's MCP server.
type MCPServer struct {
	Command string
	Args    []string
}

// DirectMCPServer runs the MCP server as the program bin (st-mcp, by
// path or by name), which takes --channel as its only argument. It is
// what clients are given wherever st-mcp can be found: it starts quicker
// than st, whose binary holds every verb, by about 2 ms of the 11 that
// `st mcp` takes to answer the opening (docs/performance.md, The MCP
// server).
func DirectMCPServer(bin string, channel bool) MCPServer {
	s := MCPServer{Command: bin, Args: []string{}}
	if channel {
		s.Args = append(s.Args, "--channel")
	}
	return s
}

// STMCPServer runs the MCP server as `stBin mcp`, for an st without
// st-mcp beside it.
func STMCPServer(stBin string, channel bool) MCPServer {
	s := MCPServer{Command: stBin, Args: []string{"mcp"}}
	if channel {
		s.Args = append(s.Args, "--channel")
	}
	return s
}

// JSONArgs is s.Args as a JSON array for jsonobj.
func (s MCPServer) JSONArgs() []any {
	args := make([]any, len(s.Args))
	for i, a := range s.Args {
		args[i] = a
	}
	return args
}

// tomlArgs is s.Args as a TOML array.
func (s MCPServer) tomlArgs() string {
	out := "["
	for i, a := range s.Args {
		if i > 0 {
			out += ", "
		}
		out += tomlQuote(a)
	}
	return out + "]"
}
