package hooks

import (
	"bytes"
	"encoding/json"
)

// Codex (0.169) names its rollout, a JSONL file under
// $CODEX_HOME/sessions, as every hook's transcript_path. After each
// model response it appends an event_msg of type token_count whose info
// holds the response's own usage (last_token_usage) and the window
// Codex gives the model (model_context_window; for a model it has no
// metadata for, its fallback). Codex itself takes last_token_usage's
// total_tokens as what the context holds, and so does st.
// (e2e/codex TestStopRecordsContextFill records a real rollout.)

type rolloutLine struct {
	Type    string `json:"type"`
	Payload struct {
		Type string `json:"type"`
		Info *struct {
			Last *struct {
				TotalTokens int64 `json:"total_tokens"`
			} `json:"last_token_usage"`
			Window int64 `json:"model_context_window"`
		} `json:"info"`
	} `json:"payload"`
}

// CodexContextUsage finds the newest token_count record in the tail of
// a Codex rollout and returns the tokens in the context (the last
// response's total) and the model's window (0 when Codex gave none). A
// first line cut by the tail bound, records without usage and zero
// records are skipped; ok is false when there is none.
func CodexContextUsage(tail []byte) (tokens, window int64, ok bool) {
	for line := range linesNewestFirst(tail) {
		if !bytes.Contains(line, []byte(`"token_count"`)) {
			continue
		}
		var rl rolloutLine
		if json.Unmarshal(line, &rl) != nil || rl.Type != "event_msg" || rl.Payload.Type != "token_count" ||
			rl.Payload.Info == nil || rl.Payload.Info.Last == nil || rl.Payload.Info.Last.TotalTokens <= 0 {
			continue
		}
		return rl.Payload.Info.Last.TotalTokens, max(rl.Payload.Info.Window, 0), true
	}
	return 0, 0, false
}
