package main

import (
	"fmt"
	"path/filepath"

	"github.com/smalltalk-go/st/internal/jsonobj"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/wiring"
)

// initGemini adds or updates st's mcpServers.st entry in Gemini CLI's
// user settings.json, keeping every other key (the hooks included), or
// prints the entry with --print. An invalid file is refused.
func (a *app) initGemini(print bool) error {
	entry := wiring.GeminiMCPEntry(a.mcpServer(false))
	if print {
		return writeJSONIndent(a.stdout, jsonobj.New().Set("mcpServers", jsonobj.New().Set("st", entry)))
	}
	path := filepath.Join(a.geminiHome(), "settings.json")
	s, err := wiring.ReadSettings(path, false)
	if err != nil {
		return sterr.Msg("st init: %v", err)
	}
	if err := wiring.SetGeminiMCP(s.Doc, entry); err != nil {
		return sterr.Msg("st init: %s: %v; not changed", path, err)
	}
	data, err := jsonobj.MarshalIndent(s.Doc)
	if err != nil {
		return err
	}
	data = append(data, '\n')
	if s.Unchanged(data) {
		fmt.Fprintf(a.stderr, "st init: %s already has st's mcpServers entry — no changes.\n", path)
		return nil
	}
	s.StBin = a.selfPath()
	backup, err := wiring.WriteSettings(s, data)
	if err != nil {
		return err
	}
	if backup != "" {
		fmt.Fprintf(a.stderr, "st init: wrote st's mcpServers entry in %s (previous file kept as %s)\n", path, backup)
	} else {
		fmt.Fprintf(a.stderr, "st init: wrote st's mcpServers entry in %s\n", path)
	}
	return nil
}
