package wiring

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/smalltalk-go/st/internal/jsonobj"
)

// GeminiTrustAdvice is what install says after wiring Gemini CLI: the
// step without which it runs none of the hooks.
const GeminiTrustAdvice = "Gemini CLI runs these hooks only in a trusted folder: trust the project in its trust dialog " +
	"(or start it with --skip-trust, or GEMINI_CLI_TRUST_WORKSPACE=true, where nobody can answer the dialog)."

// GeminiSwitchProblems lists what in a Gemini CLI settings file keeps
// st's hooks from running: hooksConfig.enabled set to false (the switch
// for every hook), or one of st's hooks named in hooksConfig.disabled (by
// its name or its command).
func GeminiSwitchProblems(doc *jsonobj.Object, stBin string) []string {
	v, ok := doc.Get("hooksConfig")
	if !ok {
		return nil
	}
	cfg, ok := v.(*jsonobj.Object)
	if !ok {
		return []string{"hooksConfig is not an object"}
	}
	var out []string
	if en, ok := cfg.Get("enabled"); ok && en == false {
		out = append(out, "hooksConfig.enabled is false: Gemini CLI runs no hook at all")
	}
	dv, _ := cfg.Get("disabled")
	list, _ := dv.([]any)
	for _, h := range AllHandlers(doc) {
		if _, ours := OursEvent(h.Command, stBin); !ours {
			continue
		}
		if slices.Contains(list, any(h.Name)) || slices.Contains(list, any(h.Command)) {
			out = append(out, fmt.Sprintf("hooksConfig.disabled names %s: Gemini CLI will not run it", cmp.Or(h.Name, h.Command)))
		}
	}
	return out
}

// GeminiMCPEntry is the mcpServers entry that runs st's MCP server in
// Gemini CLI. Gemini CLI passes its environment on to the server minus
// the names that look secret, so ST_ROOT and ST_AGENT reach it as set.
func GeminiMCPEntry(server MCPServer) *jsonobj.Object {
	return jsonobj.New().Set("command", server.Command).Set("args", server.JSONArgs())
}

// SetGeminiMCP puts entry at mcpServers.st in doc, replacing an older st
// entry and keeping the other servers in their order.
func SetGeminiMCP(doc, entry *jsonobj.Object) error {
	servers := jsonobj.New()
	if v, ok := doc.Get("mcpServers"); ok {
		o, ok := v.(*jsonobj.Object)
		if !ok {
			return fmt.Errorf("mcpServers is not an object")
		}
		servers = o
	}
	if prior, ok := servers.Get("st"); ok {
		if a, err := jsonobj.Marshal(prior); err == nil {
			if b, err := jsonobj.Marshal(entry); err == nil && string(a) == string(b) {
				return nil // the same entry, as written: leave its numbers and order alone
			}
		}
	}
	servers.Set("st", entry)
	doc.Set("mcpServers", servers)
	return nil
}
