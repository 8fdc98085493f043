package main

import "strings"

// A verb typed in its plain form (no argument, only flags without a
// value, or one of the statuses an agent sets) runs without kong: building even the one command's model from the grammar
// was about 40 % of `st status`'s own work. Each form's command is the
// one kong fills from exactly those arguments (TestPlainFormsAsKong
// checks every one against the grammar path), so the behaviour is the
// same; every other form, help included, takes the grammar path.

// plain is one plain form: its arguments, its command's path and the
// command kong would fill.
type plain struct {
	args    string
	path    string
	command func() runner
}

var plainForms = []plain{
	{"mcp", "mcp", func() runner { return &mcpCmd{} }},
	{"mcp --channel", "mcp", func() runner { return &mcpCmd{Channel: true} }},
	{"status", "status", func() runner { return &statusCmd{} }},
	{"status --json", "status", func() runner { return &statusCmd{JSON: true} }},
	{"status --set available", "status", func() runner { return &statusCmd{Set: new("available")} }},
	{"status --set busy", "status", func() runner { return &statusCmd{Set: new("busy")} }},
	{"status --set away", "status", func() runner { return &statusCmd{Set: new("away")} }},
	{"status --set dnd", "status", func() runner { return &statusCmd{Set: new("dnd")} }},
	{"status --set offline", "status", func() runner { return &statusCmd{Set: new("offline")} }},
	{"agents", "agents", func() runner { return &agentsCmd{} }},
	{"agents --json", "agents", func() runner { return &agentsCmd{JSON: true} }},
	{"overview", "overview", func() runner { return &overviewCmd{} }},
	{"overview --json", "overview", func() runner { return &overviewCmd{JSON: true} }},
	{"context read", "context read", func() runner { return &contextReadCmd{} }},
	{"context read --full", "context read", func() runner { return &contextReadCmd{Full: true} }},
	{"context read --decisions", "context read", func() runner { return &contextReadCmd{Decisions: true} }},
	{"context read --json", "context read", func() runner { return &contextReadCmd{JSON: true} }},
	{"message ls", "message ls", func() runner { return &messageLsCmd{} }},
	{"message ls --json", "message ls", func() runner { return &messageLsCmd{JSON: true} }},
	{"message ls --count", "message ls", func() runner { return &messageLsCmd{Count: true} }},
	{"message ls --archive", "message ls", func() runner { return &messageLsCmd{Archive: true} }},
	{"message ls --unacked", "message ls", func() runner { return &messageLsCmd{Unacked: true} }},
	{"resource ls", "resource ls", func() runner { return &resourceLsCmd{} }},
	{"resource ls --json", "resource ls", func() runner { return &resourceLsCmd{JSON: true} }},
	{"watch --once", "watch", func() runner { return &watchCmd{Once: true} }},
	{"reservations", "reservations", func() runner { return &reservationsCmd{} }},
	{"reservations --json", "reservations", func() runner { return &reservationsCmd{JSON: true} }},
}

// plainForm finds args among plainForms.
func plainForm(args []string) (plain, bool) {
	if len(args) == 0 || len(args) > 3 {
		return plain{}, false
	}
	typed := strings.Join(args, " ")
	for _, f := range plainForms {
		if f.args == typed {
			return f, true
		}
	}
	return plain{}, false
}
