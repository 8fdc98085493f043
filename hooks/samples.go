package hooks

import "embed"

//go:embed payloads/*.json
var payloads embed.FS

// Sample returns a realistic stdin payload for event, with the field
// names the harness sends (claude-code-hooks.md).
func Sample(event string) []byte {
	name := "claude-" + event + ".json"
	if IsCodex(event) || IsGemini(event) {
		name = event + ".json"
	}
	data, err := payloads.ReadFile("payloads/" + name)
	if err != nil {
		return []byte("{}")
	}
	return data
}
