package mcp

import (
	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/resource"
)

type agentsIn struct {
	Status *string `json:"status,omitempty" jsonschema:"Only the agents in this state. unknown means the agent has not refreshed its status for over 15 minutes. Default: every agent."`
	Enrich *bool   `json:"enrich,omitempty" jsonschema:"true adds each agent's lastActivity and the number of messages in its inbox. Default false."`
}

// agentsOut is st_agents' result: agents.Agent items, or agents.Enriched
// ones with enrich (the key is still members, as upstream's).
type agentsOut struct {
	Members any `json:"members"`
}

// agentItem describes one member for the output schema only.
type agentItem struct {
	Identity     string   `json:"identity" jsonschema:"The agent's name, to use as to in st_msg_send."`
	Status       string   `json:"status" jsonschema:"The state it set (offline, available, busy, away, dnd), or unknown when it has not refreshed it for over 15 minutes; offline when it never set one."`
	Name         *string  `json:"name" jsonschema:"Its display name, or null when it has none."`
	LastActivity *float64 `json:"lastActivity,omitempty" jsonschema:"With enrich: when its inbox, archive or status last changed, in unix milliseconds (null when never)."`
	Inbox        *int     `json:"inbox,omitempty" jsonschema:"With enrich: how many messages wait in its inbox."`
}

type agentsSchema struct {
	Members []agentItem `json:"members" jsonschema:"The agents of this store, sorted by name."`
}

func (s *server) addAgents() {
	add(s, tool[agentsIn, agentsOut]{
		name:  "st_agents",
		title: "List the agents and their status",
		description: "List every agent of this store, sorted by name, with its status and display name (the CLI's `st agents`). " +
			"Call it to learn who exists and who is around before you send a message. " +
			"A status is what the agent last set, or unknown when it has not refreshed it for over 15 minutes (it may be gone). " +
			"enrich=true adds when each agent was last active and how many messages wait in its inbox; status keeps only the agents in one state. " +
			"Changes nothing.",
		effect:    reads,
		outSchema: outputSchema[agentsSchema],
		run: func(in agentsIn) (string, agentsOut, error) {
			t := s.readTree()
			defer closeTree(t)
			list := agents.List(t, s.cfg.Now(), agents.Options{Status: str(in.Status)})
			out := agentsOut{Members: list}
			if in.Enrich != nil && *in.Enrich {
				out.Members = agents.Enrich(t, list, s.cfg.Now())
			}
			return plural(len(list), "agent", "agents"), out, nil
		},
	})
}

type resourceAddIn struct {
	URL      string   `json:"url" jsonschema:"The address to publish: a lowercase scheme, then ://, then the rest (for example https://github.com/o/r/pull/7 or pty://build)."`
	Title    *string  `json:"title,omitempty" jsonschema:"A one-line title. Default: none."`
	Tags     []string `json:"tags,omitempty" jsonschema:"Labels; an item may hold several separated by commas. Each is trimmed and empty ones are dropped."`
	Relation *string  `json:"relation,omitempty" jsonschema:"How you relate to the URL, free text; owns, relates-to and depends-on are the usual words. Default: none."`
	Body     *string  `json:"body,omitempty" jsonschema:"A longer description, in Markdown. Default: none."`
}

type resourceAddOut struct {
	Filename string `json:"filename" jsonschema:"The new resource's filename, <unix-ms>-<rand6>.md, for st_resource_read and st_resource_remove."`
	Identity string `json:"identity" jsonschema:"You, the agent whose resources/ holds it."`
}

type resourceLsIn struct {
	Identity *string `json:"identity,omitempty" jsonschema:"Whose resources to list; any agent's may be read. Default: you (the server's agent, $ST_AGENT)."`
}

type resourceItem struct {
	Filename string   `json:"filename" jsonschema:"The resource's filename."`
	URL      string   `json:"url" jsonschema:"The address it records."`
	Title    *string  `json:"title" jsonschema:"Its title, or null."`
	Tags     []string `json:"tags" jsonschema:"Its labels (empty when none)."`
	Relation *string  `json:"relation" jsonschema:"How the owner relates to the URL, or null."`
}

type resourceLsOut struct {
	Identity  string         `json:"identity" jsonschema:"The agent whose resources these are."`
	Resources []resourceItem `json:"resources" jsonschema:"Its resources, oldest first; unreadable files are skipped."`
}

type resourceReadIn struct {
	Filename string  `json:"filename" jsonschema:"The resource's filename as st_resource_ls lists it: <unix-ms>-<rand6>.md."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose resource it is; any agent's may be read. Default: you (the server's agent, $ST_AGENT)."`
}

type resourceReadOut struct {
	Identity string   `json:"identity" jsonschema:"The agent whose resource it is."`
	Filename string   `json:"filename" jsonschema:"The resource's filename."`
	URL      string   `json:"url" jsonschema:"The address it records."`
	Title    *string  `json:"title" jsonschema:"Its title, or null."`
	Tags     []string `json:"tags" jsonschema:"Its labels (empty when none)."`
	Relation *string  `json:"relation" jsonschema:"How the owner relates to the URL, or null."`
	Body     string   `json:"body" jsonschema:"Its description, in Markdown (empty when none)."`
}

type resourceRemoveIn struct {
	Filename string `json:"filename" jsonschema:"The filename of one of your own resources (<unix-ms>-<rand6>.md), as st_resource_ls lists it."`
}

type resourceRemoveOut struct {
	Identity string `json:"identity" jsonschema:"You, the owner."`
	Filename string `json:"filename" jsonschema:"The resource removed."`
	Removed  bool   `json:"removed" jsonschema:"Always true: a call that removes nothing fails instead."`
}

func (s *server) addResourceTools() {
	add(s, tool[resourceAddIn, resourceAddOut]{
		name:  "st_resource_add",
		title: "Publish a link to share (a resource)",
		description: "Record a URL with an optional title, labels, relation and description in your own resources/ folder, where every agent can read it (the CLI's `st resource add`). " +
			"Use it to point peers at something you own or follow: a pull request, a document, a terminal session. " +
			"st sync carries it to other machines. Every call adds a new resource, even for the same URL. " +
			"Returns its filename. Errors: INVALID_RESOURCE_URL (no lowercase scheme followed by ://), " +
			"MESSAGE_TOO_LARGE (the file would pass the maximum message size, ST_MAX_MESSAGE_BYTES, 4 MiB by default: shorten the description).",
		// A new resource file per call; nothing is replaced.
		effect: effect{},
		run: func(in resourceAddIn) (string, resourceAddOut, error) {
			if err := resource.CheckURL(in.URL); err != nil {
				return "", resourceAddOut{}, err
			}
			id := s.cfg.Agent
			if err := layout.Apply(s.cfg.Root, id, layout.Strict); err != nil {
				return "", resourceAddOut{}, err
			}
			t, err := s.tree()
			if err != nil {
				return "", resourceAddOut{}, err
			}
			defer t.Close()
			r := resource.Resource{
				URL:      in.URL,
				Title:    str(in.Title),
				Tags:     resource.SplitTags(in.Tags...),
				Relation: str(in.Relation),
				Body:     []byte(str(in.Body)),
			}
			if err := resource.CheckSize(r, s.cfg.MaxMessageBytes); err != nil {
				return "", resourceAddOut{}, err
			}
			fn, err := resource.Add(t, id, r, s.cfg.Now())
			if err != nil {
				return "", resourceAddOut{}, err
			}
			return "added: " + id + "/" + fn, resourceAddOut{Filename: fn, Identity: id}, nil
		},
	})
	add(s, tool[resourceLsIn, resourceLsOut]{
		name:  "st_resource_ls",
		title: "List an agent's resources",
		description: "List the links an agent published, yours by default, each with its filename, URL, title, labels and relation (the CLI's `st resource ls`). " +
			"Any agent's list may be read; an agent with none gives an empty list. Descriptions are left out: read one with st_resource_read. " +
			"Changes nothing. Errors: INVALID_IDENTITY.",
		effect: reads,
		run: func(in resourceLsIn) (string, resourceLsOut, error) {
			id, err := s.agent(in.Identity) // grammar only, like upstream
			if err != nil {
				return "", resourceLsOut{}, err
			}
			t := s.readTree()
			defer closeTree(t)
			out := resourceLsOut{Identity: id, Resources: []resourceItem{}}
			for _, fn := range resource.List(t, id) {
				r, err := resource.ReadHeader(t, id, fn)
				if err != nil {
					continue // unreadable files are skipped
				}
				out.Resources = append(out.Resources, resourceItem{fn, r.URL, r.Title, r.Tags, r.Relation})
			}
			return plural(len(out.Resources), "resource", "resources"), out, nil
		},
	})
	add(s, tool[resourceReadIn, resourceReadOut]{
		name:  "st_resource_read",
		title: "Read one resource",
		description: "Return one published link whole: URL, title, labels, relation and description (the CLI's `st resource read`). Yours by default; any agent's may be read. " +
			"Changes nothing. Errors: INVALID_FILENAME, RESOURCE_NOT_FOUND (check the name with st_resource_ls), INVALID_IDENTITY, IDENTITY_NOT_HOSTED, " +
			"MESSAGE_TOO_LARGE (the file passes the maximum message size; st resource read in a shell prints it).",
		effect: reads,
		run: func(in resourceReadIn) (string, resourceReadOut, error) {
			id, err := s.agent(in.Identity)
			if err != nil {
				return "", resourceReadOut{}, err
			}
			if err := resource.CheckName(in.Filename); err != nil {
				return "", resourceReadOut{}, err
			}
			if err := layout.Apply(s.cfg.Root, id, layout.Lenient); err != nil {
				return "", resourceReadOut{}, err
			}
			t := s.readTree()
			defer closeTree(t)
			r, err := resource.Read(t, id, in.Filename, s.cfg.MaxMessageBytes)
			if err != nil {
				return "", resourceReadOut{}, err
			}
			return id + "/" + in.Filename + ": " + r.URL, resourceReadOut{
				Identity: id, Filename: in.Filename, URL: r.URL, Title: r.Title,
				Tags: r.Tags, Relation: r.Relation, Body: r.Body,
			}, nil
		},
	})
	add(s, tool[resourceRemoveIn, resourceRemoveOut]{
		name:  "st_resource_remove",
		title: "Remove one of your resources",
		description: "Delete one of your own published links (the CLI's `st resource rm`). Only your own resources can be removed; others' are theirs to manage. " +
			"Errors: INVALID_FILENAME, RESOURCE_NOT_FOUND (no such resource of yours, for example because it was removed already).",
		// Deletes the resource file; a repeat finds nothing to delete.
		effect: effect{destructive: true, idempotent: true},
		run: func(in resourceRemoveIn) (string, resourceRemoveOut, error) {
			if err := resource.CheckName(in.Filename); err != nil {
				return "", resourceRemoveOut{}, err
			}
			id := s.cfg.Agent
			if err := layout.Apply(s.cfg.Root, id, layout.Strict); err != nil {
				return "", resourceRemoveOut{}, err
			}
			t, err := s.tree()
			if err != nil {
				return "", resourceRemoveOut{}, err
			}
			defer t.Close()
			if err := resource.Remove(t, id, in.Filename); err != nil {
				return "", resourceRemoveOut{}, err
			}
			return "removed: " + id + "/" + in.Filename, resourceRemoveOut{Identity: id, Filename: in.Filename, Removed: true}, nil
		},
	})
}
