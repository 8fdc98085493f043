// Package wiring plugs st into a client and checks that it is plugged in
// right: it edits Claude Code's settings files, Codex's hooks.json and
// config.toml and Gemini CLI's settings.json (install, uninstall, the
// `hooks path` fragments, st's MCP entry), each client described once as
// a row of Clients (clients.go); it installs the git pre-commit guard, and runs `st hooks doctor`,
// which reads the wiring, the client's hook trust and the real store, and
// fires each wired hook on a sample payload.
//
// What runs inside a session is package hooks; wiring imports it for the
// event names, the sample payloads and the output validator, and only
// cmd/st imports wiring: hooks, mcp and the dashboard do not depend on
// the TOML parser or the settings editor.
package wiring
