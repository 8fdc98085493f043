package main

import (
	"fmt"
	"strings"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

// completionsWordsCmd prints the names the completion scripts offer for
// arguments whose values live in the store (predict:"@agent" and
// "@message"). Hidden: the scripts call it, people need not.
type completionsWordsCmd struct {
	Kind  string `arg:"" predict:"agent,message" help:"agent: the agents of the store; message: an agent's message filenames"`
	Agent string `arg:"" optional:"" form:"[<identity>]" help:"for message, whose inbox and archive (default: $ST_AGENT)"`
}

// Help is completions words' paragraph.
func (completionsWordsCmd) Help() string {
	return `Prints one name per line and nothing at all when the store, the agent or
the folder is missing, so a completion never shows an error.`
}

func (completionsWordsCmd) examples() []example {
	return []example{
		{"the agent names a completion offers", "st completions words agent"},
		{"bob's message filenames", "st completions words message bob"},
	}
}

func (c *completionsWordsCmd) Run(a *app) error {
	var words []string
	t := a.tree()
	defer t.Close()
	switch c.Kind {
	case "agent":
		words = agents.IDs(t)
	case "message":
		id, err := a.resolve(c.Agent, layout.Lenient)
		if err != nil {
			return nil
		}
		for _, folder := range []string{inbox.Inbox, inbox.Archive} {
			names, _ := inbox.Select(t, id, folder, inbox.Filter{})
			words = append(words, names...)
		}
	default:
		return sterr.Msg("unknown kind of word: %s (agent or message)", c.Kind)
	}
	if len(words) == 0 {
		return nil
	}
	_, err := fmt.Fprintln(a.stdout, strings.Join(words, "\n"))
	return err
}
