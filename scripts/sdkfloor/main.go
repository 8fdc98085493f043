// Command sdkfloor does nothing but link the official MCP Go SDK: it is
// the floor of any program built on it, whose package initialisers (the
// SDK's and those of what it imports: net/http, crypto/tls, encoding/gob,
// jsonschema) run before main. scripts/bench times it beside st-mcp and
// mcpfloor.
package main

import _ "github.com/modelcontextprotocol/go-sdk/mcp"

func main() {}
