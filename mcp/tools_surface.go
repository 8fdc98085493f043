package mcp

import (
	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/resource"
)

type agentsIn struct {
	Status *string "json:\"status,omitempty\" jsonschema:\"Filter to agents whose effective status matches. `unknown` is the derived state when a peer's status-file mtime is older than ~15 minutes. Default: all.\""
	Enrich *bool   `json:"enrich,omitempty" jsonschema:"Include lastActivity and inbox unread count per agent."`
}

// agentsOut is st_agents' result: agents.Agent items, or agents.Enriched
// ones with enrich (the key is still members, as upstream's).
type agentsOut struct {
	Members any `json:"members"`
}

// agentItem describes one member for the output schema only.
type agentItem struct {
	Identity     string   `json:"identity"`
	Status       string   `json:"status"`
	Name         *string  `json:"name"`
	LastActivity *float64 `json:"lastActivity,omitempty" jsonschema:"Newest mtime under <agent>/ across inbox/archive/status. Enriched only."`
	Inbox        *int     `json:"inbox,omitempty" jsonschema:"Count of valid-grammar files in <agent>/inbox/. Enriched only."`
}

type agentsSchema struct {
	Members []agentItem "json:\"members\" jsonschema:\"Agents under $ST_ROOT, sorted alphabetically. (Field name `members` kept for back-compat; renames to `agents` in a follow-up.)\""
}

func (s *server) addAgents() {
	add(s, tool[agentsIn, agentsOut]{
		name:        "st_agents",
		title:       "Enumerate smalltalk agents",
		description: "Equivalent to `st agents`. Enumerate agents present in $ST_ROOT with their effective status. Pass `enrich: true` to include `lastActivity` and inbox unread count per agent. Useful for peer discovery before sending — call this when you need to know who's available to message.",
		effect:      reads,
		outSchema:   outputSchema[agentsSchema](),
		run: func(in agentsIn) (string, agentsOut, error) {
			t := s.readTree()
			defer closeTree(t)
			list := agents.List(t, s.cfg.Now(), agents.Options{Status: str(in.Status)})
			out := agentsOut{Members: list}
			if in.Enrich != nil && *in.Enrich {
				out.Members = agents.Enrich(t, list)
			}
			return plural(len(list), "agent", "agents"), out, nil
		},
	})
}

type resourceAddIn struct {
	URL      string   "json:\"url\" jsonschema:\"URL the resource points at. Required. Must contain a scheme (e.g. `https://`, `pty://`).\""
	Title    *string  `json:"title,omitempty" jsonschema:"Optional one-line title."`
	Tags     []string `json:"tags,omitempty" jsonschema:"Optional list of tag strings."`
	Relation *string  "json:\"relation,omitempty\" jsonschema:\"Optional free-form relation between the agent and the URL. Canonical (non-enforced) values: `owns` / `relates-to` / `depends-on`. Never inferred — absent by default. The bare URL stays first-class.\""
	Body     *string  `json:"body,omitempty" jsonschema:"Optional markdown description body."`
}

type resourceAddOut struct {
	Filename string `json:"filename"`
	Identity string `json:"identity"`
}

type resourceLsIn struct {
	Identity *string `json:"identity,omitempty" jsonschema:"Whose resources to list. Defaults to $ST_AGENT."`
}

type resourceItem struct {
	Filename string   `json:"filename"`
	URL      string   `json:"url"`
	Title    *string  `json:"title"`
	Tags     []string `json:"tags"`
	Relation *string  `json:"relation"`
}

type resourceLsOut struct {
	Identity  string         `json:"identity"`
	Resources []resourceItem `json:"resources"`
}

type resourceReadIn struct {
	Filename string  `json:"filename" jsonschema:"Resource filename (LAYOUT-004 grammar)."`
	Identity *string `json:"identity,omitempty" jsonschema:"Whose resource to read. Defaults to $ST_AGENT."`
}

type resourceReadOut struct {
	Identity string   `json:"identity"`
	Filename string   `json:"filename"`
	URL      string   `json:"url"`
	Title    *string  `json:"title"`
	Tags     []string `json:"tags"`
	Relation *string  `json:"relation"`
	Body     string   `json:"body"`
}

type resourceRemoveIn struct {
	Filename string `json:"filename" jsonschema:"Resource filename to delete from your own resources/."`
}

type resourceRemoveOut struct {
	Identity string `json:"identity"`
	Filename string `json:"filename"`
	Removed  bool   `json:"removed"`
}

func (s *server) addResourceTools() {
	add(s, tool[resourceAddIn, resourceAddOut]{
		name:        "st_resource_add",
		title:       "Add a resource (annotated URL)",
		description: "Equivalent to `st resource add`. Write a new resource file under the agent's own resources/ folder. URL is required; title/tags/body are optional. The act of writing IS the publish; sync surfaces it to peers later.",
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
			fn, err := resource.Add(t, id, resource.Resource{
				URL:      in.URL,
				Title:    str(in.Title),
				Tags:     resource.SplitTags(in.Tags...),
				Relation: str(in.Relation),
				Body:     []byte(str(in.Body)),
			}, s.cfg.Now())
			if err != nil {
				return "", resourceAddOut{}, err
			}
			return "added: " + id + "/" + fn, resourceAddOut{Filename: fn, Identity: id}, nil
		},
	})
	add(s, tool[resourceLsIn, resourceLsOut]{
		name:        "st_resource_ls",
		title:       "List an agent's resources",
		description: "Equivalent to `st resource ls`. Returns parsed resource records (filename + url + title + tags) for the given identity. Identity defaults to $ST_AGENT but any peer is readable.",
		effect:      reads,
		run: func(in resourceLsIn) (string, resourceLsOut, error) {
			id, err := s.agent(in.Identity) // grammar only, like upstream
			if err != nil {
				return "", resourceLsOut{}, err
			}
			t := s.readTree()
			defer closeTree(t)
			out := resourceLsOut{Identity: id, Resources: []resourceItem{}}
			for _, fn := range resource.List(t, id) {
				r, err := resource.Read(t, id, fn)
				if err != nil {
					continue // unreadable files are skipped
				}
				out.Resources = append(out.Resources, resourceItem{fn, r.URL, r.Title, r.Tags, r.Relation})
			}
			return plural(len(out.Resources), "resource", "resources"), out, nil
		},
	})
	add(s, tool[resourceReadIn, resourceReadOut]{
		name:        "st_resource_read",
		title:       "Read one of an agent's resources",
		description: "Equivalent to `st resource read`. Returns the parsed Resource (url + title + tags + body). Identity defaults to $ST_AGENT.",
		effect:      reads,
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
			r, err := resource.Read(t, id, in.Filename)
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
		name:        "st_resource_remove",
		title:       "Remove one of your own resources",
		description: "Equivalent to `st resource rm`. Deletes a resource from the agent's own resources/. Single-writer: only the resource owner can remove. Throws RESOURCE_NOT_FOUND if the filename doesn't exist.",
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
