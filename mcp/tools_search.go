package mcp

import (
	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

type msgSearchIn struct {
	Query    string  `json:"query" jsonschema:"The text to look for, matched without regard to case within subjects and body lines. Must not be empty."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose messages to search. Default: you (the server's agent, $ST_AGENT)."`
	All      *bool   `json:"all,omitempty" jsonschema:"true searches every agent of this store instead of one (identity is then ignored). Default false."`
	Archive  *bool   `json:"archive,omitempty" jsonschema:"true searches archive/ too, not only inbox/. Default false."`
	From     *string `json:"from,omitempty" jsonschema:"Only messages from this sender (agent name)."`
	Since    *int64  `json:"since,omitempty" jsonschema:"Only messages sent at or after this time, in unix milliseconds." minimum:"0"`
}

type msgSearchOut struct {
	Hits []inbox.Hit `json:"hits" jsonschema:"The matching messages, newest first, each with where it is, its sender and subject, and the first line that matched."`
}

func (s *server) addSearch() {
	add(s, tool[msgSearchIn, msgSearchOut]{
		name:  "st_msg_search",
		title: "Search messages for a text",
		description: "Find the messages whose subject or body contains a text, ignoring case (the CLI's `st message search`). " +
			"Searches your inbox by default; archive=true adds the archive, all=true every agent's folders, and from and since narrow the result. " +
			"Every message file is read (there is no index), so prefer a narrow search in a big store. " +
			"Returns the matches newest first, each with the first matching line (body lines cut after 200 bytes); read one whole with st_msg_read. Changes nothing. " +
			"Errors: INVALID_IDENTITY, IDENTITY_NOT_HOSTED (identity is not an agent of this store).",
		effect: reads,
		run: func(in msgSearchIn) (string, msgSearchOut, error) {
			if in.Query == "" {
				return "", msgSearchOut{}, sterr.Msg("query must not be empty")
			}
			q := inbox.Query{Text: in.Query, Folders: []string{inbox.Inbox}, From: str(in.From), MaxBytes: s.cfg.MaxMessageBytes}
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
	Filename string `json:"filename" jsonschema:"The message to acknowledge, by its filename as st_msg_ls lists it; it must be in your inbox or archive."`
}

type msgAckOut struct {
	Filename string `json:"filename" jsonschema:"The message acknowledged."`
	Identity string `json:"identity" jsonschema:"You, the agent that acknowledged it."`
	Already  bool   `json:"already" jsonschema:"true when it had been acknowledged before; this call changed nothing."`
}

func (s *server) addAck() {
	add(s, tool[msgAckIn, msgAckOut]{
		name:  "st_msg_ack",
		title: "Acknowledge a message",
		description: "Confirm to its sender that you got a message that asks for it, one whose header says ack: required (the CLI's `st message ack`). " +
			"st records it in your acks/ folder, which st sync carries to other machines like a message, where the sender sees it. " +
			"Until then the message is listed as waiting for your acknowledgement (st message ls --unacked, the dashboard). " +
			"Safe to repeat: a second call changes nothing and returns already=true. " +
			"Errors: INVALID_FILENAME, MESSAGE_NOT_FOUND (not in your inbox or archive).",
		effect: effect{idempotent: true},
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
