package mcp

import (
	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

type msgSearchIn struct {
	Query    string  `json:"query" jsonschema:"The text to find, case-insensitive, in subjects and bodies. Required."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose messages to search. Defaults to $ST_AGENT."`
	All      *bool   `json:"all,omitempty" jsonschema:"true: search every agent's messages (identity is then ignored)."`
	Archive  *bool   `json:"archive,omitempty" jsonschema:"true: search archive/ as well as inbox/."`
	From     *string `json:"from,omitempty" jsonschema:"Only messages from this sender."`
	Since    *int64  `json:"since,omitempty" jsonschema:"Only messages sent at or after this unix-ms time." minimum:"0"`
}

type msgSearchOut struct {
	Hits []inbox.Hit `json:"hits" jsonschema:"Matching messages, newest first, each with the first line that matched (its subject, or a body line)."`
}

func (s *server) addSearch() {
	add(s, tool[msgSearchIn, msgSearchOut]{
		name:        "st_msg_search",
		title:       "Search smalltalk messages",
		description: "Equivalent to `st message search`. Find messages whose subject or body contains query (case-insensitive), newest first, each with the line that matched; your inbox by default, archive and every agent on request.",
		effect:      reads,
		run: func(in msgSearchIn) (string, msgSearchOut, error) {
			if in.Query == "" {
				return "", msgSearchOut{}, sterr.Msg("query must not be empty")
			}
			q := inbox.Query{Text: in.Query, Folders: []string{inbox.Inbox}, From: str(in.From)}
			if in.Archive != nil && *in.Archive {
				q.Folders = append(q.Folders, inbox.Archive)
			}
			if in.Since != nil {
				q.Since = *in.Since
			}
			t := s.readTree()
			defer closeTree(t)
			if in.All != nil && *in.All {
				if t != nil {
					for _, a := range agents.List(t, s.cfg.Now(), agents.Options{}) {
						q.Agents = append(q.Agents, a.Identity)
					}
				}
			} else {
				id, err := s.hosted(in.Identity, layout.Lenient)
				if err != nil {
					return "", msgSearchOut{}, err
				}
				q.Agents = []string{id}
			}
			out := msgSearchOut{Hits: []inbox.Hit{}}
			if t != nil {
				if hits := inbox.Search(t, q); hits != nil {
					out.Hits = hits
				}
			}
			return plural(len(out.Hits), "match", "matches"), out, nil
		},
	})
}

type msgAckIn struct {
	Filename string `json:"filename" jsonschema:"The message to acknowledge (LAYOUT-004 grammar), in your inbox or archive. Required."`
}

type msgAckOut struct {
	Filename string `json:"filename"`
	Identity string `json:"identity"`
	Already  bool   `json:"already" jsonschema:"True when it was acknowledged before; nothing changed."`
}

func (s *server) addAck() {
	add(s, tool[msgAckIn, msgAckOut]{
		name:        "st_msg_ack",
		title:       "Acknowledge a smalltalk message",
		description: "Equivalent to `st message ack`. Acknowledge a message sent with ack required (its header has `ack: required`): st records it in your acks/ folder, where the sender sees it. Acknowledging twice changes nothing.",
		effect:      effect{idempotent: true},
		run: func(in msgAckIn) (string, msgAckOut, error) {
			if err := layout.EnsureAgent(s.cfg.Root, s.cfg.Agent); err != nil {
				return "", msgAckOut{}, err
			}
			t, err := s.tree()
			if err != nil {
				return "", msgAckOut{}, err
			}
			defer t.Close()
			already, err := inbox.Ack(t, s.cfg.Agent, in.Filename, s.cfg.Now())
			if err != nil {
				return "", msgAckOut{}, err
			}
			return "acknowledged " + in.Filename, msgAckOut{Filename: in.Filename, Identity: s.cfg.Agent, Already: already}, nil
		},
	})
}
