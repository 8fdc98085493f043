package main

// A verb typed in its plain form (no argument, or only --json) runs
// without kong: building even the one command's model from the grammar
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
	{"agents", "agents", func() runner { return &agentsCmd{} }},
	{"agents --json", "agents", func() runner { return &agentsCmd{JSON: true} }},
	{"overview", "overview", func() runner { return &overviewCmd{} }},
	{"overview --json", "overview", func() runner { return &overviewCmd{JSON: true} }},
	{"context read", "context read", func() runner { return &contextReadCmd{} }},
	{"message ls", "message ls", func() runner { return &messageLsCmd{} }},
	{"message ls --json", "message ls", func() runner { return &messageLsCmd{JSON: true} }},
	{"reservations", "reservations", func() runner { return &reservationsCmd{} }},
	{"reservations --json", "reservations", func() runner { return &reservationsCmd{JSON: true} }},
}

// plainForm finds args among plainForms.
func plainForm(args []string) (plain, bool) {
	if len(args) == 0 || len(args) > 2 {
		return plain{}, false
	}
	typed := joined(args)
	for _, f := range plainForms {
		if f.args == typed {
			return f, true
		}
	}
	return plain{}, false
}

// joined is args joined with spaces (one or two words).
func joined(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return args[0] + " " + args[1]
}
