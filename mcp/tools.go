package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/jsstr"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/internal/sterr"
)

// tool describes one tool: the title and description shown to models
// (ours, in our own words; texts_test.go checks them) and its handler,
// which returns the summary line and the structured result, or an error.
type tool[In, Out any] struct {
	name, title, description string
	effect                   effect                    // what a call does to the store
	outSchema                func() *jsonschema.Schema // instead of Out's inferred schema
	run                      func(in In) (summary string, out Out, err error)
}

// effect is what a tool does to the store, told to the client as the
// tool's annotations. Clients decide from them whether a call needs the
// user's approval: Codex with approval_policy=never refuses every tool
// that has none (the hints then default to destructive and open-world).
type effect struct {
	readOnly    bool // changes nothing
	destructive bool // may remove or overwrite what is there (else it only adds)
	idempotent  bool // a repeat with the same arguments changes nothing more
}

// reads is the effect of the tools that only read the store. (Reading an
// agent that has no folders yet creates them, as every st verb does; no
// content changes.)
var reads = effect{readOnly: true, idempotent: true}

// annotations says e with every hint explicit: some clients ignore the
// rule that destructiveHint means nothing on a read-only tool and read
// its absence as true. Every tool works on the local store only, never
// on an open world such as the web.
func (e effect) annotations(title string) *mcp.ToolAnnotations {
	no := false
	destructive := e.destructive
	return &mcp.ToolAnnotations{
		Title:           title,
		ReadOnlyHint:    e.readOnly,
		DestructiveHint: &destructive,
		IdempotentHint:  e.idempotent,
		OpenWorldHint:   &no,
	}
}

// add registers t on the server. The input schema is inferred from In
// (descriptions from jsonschema tags), the output schema from Out, whose
// field order is the key order of structuredContent. Both are inferred
// once, at build time (schemas_gen.go, which TestToolSchemasGenerated
// keeps up to date): reflecting over every tool's types at each start
// cost more than the rest of the server's start. Errors become tool
// results, never protocol errors.
//
// It uses the SDK's untyped AddTool and validates arguments itself, so
// that a schema is resolved on the tool's first call rather than at
// start-up (resolving all of them would double the time to the reply to
// initialize), and so that structuredContent keeps its key order (the
// typed AddTool re-marshals it through a map). Under Run the encoded
// structuredContent goes around the SDK (heldResults). The SDK validates
// no output against OutputSchema on this path.
//
//go:generate go test -run ^TestToolSchemasGenerated$ -update-schemas
//go:generate go test -run ^TestFrontGenerated$ -update-schemas
func add[In, Out any](s *server, t tool[In, Out]) {
	in, out := toolSchemas[t.name][0], toolSchemas[t.name][1]
	if s.cfg.inferred != nil || in == "" {
		in, out = inferSchemas[In, Out](t)
		if s.cfg.inferred != nil {
			s.cfg.inferred[t.name] = [2]string{in, out}
		}
	}
	def := &mcp.Tool{
		Name:         t.name,
		Title:        t.title,
		Description:  t.description,
		Annotations:  t.effect.annotations(t.title),
		InputSchema:  json.RawMessage(in),
		OutputSchema: json.RawMessage(out),
	}
	resolve := sync.OnceValues(func() (*jsonschema.Resolved, error) {
		var schema jsonschema.Schema
		if err := json.Unmarshal([]byte(in), &schema); err != nil {
			return nil, err
		}
		return schema.Resolve(nil)
	})
	s.mcp.AddTool(def, func(_ context.Context, req *mcp.CallToolRequest) (res *mcp.CallToolResult, _ error) {
		if !s.calls.begin() {
			return errorResult(errShuttingDown), nil
		}
		defer s.calls.end()
		if s.cfg.CallStarted != nil {
			s.cfg.CallStarted()
		}
		defer func() {
			if r := recover(); r != nil {
				res = errorResult(fmt.Errorf("%v", r))
			}
		}()
		start := s.cfg.Now()
		args, err := decodeArgs[In](req.Params.Arguments, resolve)
		if err != nil {
			s.recordCall(t.name, start, err) // a failed call, as the client saw it
			return invalidArgs(err), nil
		}
		summary, v, err := t.run(args)
		s.recordCall(t.name, start, err) // activity.go
		if err != nil {
			return errorResult(err), nil
		}
		raw, err := encodeOut(v)
		if err != nil {
			return errorResult(err), nil
		}
		structured := json.RawMessage(raw)
		if s.held != nil {
			structured = s.held.hold(raw)
		}
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: summary}},
			StructuredContent: structured,
		}, nil
	})
}

// jsonAppender is a tool output that encodes itself, for long lists:
// the bytes must be what jsstr.Marshal gives.
type jsonAppender interface {
	appendJSON(b []byte) []byte
}

// encodeOut encodes a tool's structured output like JSON.stringify.
func encodeOut(v any) ([]byte, error) {
	if a, ok := v.(jsonAppender); ok {
		return a.appendJSON(nil), nil
	}
	return jsstr.Marshal(v)
}

// decodeArgs validates raw arguments against the tool's input schema and
// decodes them.
func decodeArgs[In any](raw json.RawMessage, resolve func() (*jsonschema.Resolved, error)) (In, error) {
	var in In
	args := map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return in, err
		}
	}
	r, err := resolve()
	if err != nil {
		return in, err
	}
	if err := r.Validate(args); err != nil {
		return in, err
	}
	if len(raw) > 0 && string(raw) != "null" {
		if err := json.Unmarshal(raw, &in); err != nil {
			return in, err
		}
	}
	return in, nil
}

// invalidArgs is the tool error for arguments that do not match the input
// schema (its text is the SDK's, not part of the contract).
func invalidArgs(err error) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("validating \"arguments\": %v", err)}},
	}
}

// inferSchemas infers t's input and output schemas, as JSON.
func inferSchemas[In, Out any](t tool[In, Out]) (in, out string) {
	outSchema := outputSchema[Out]
	if t.outSchema != nil {
		outSchema = t.outSchema
	}
	inJSON, err := json.Marshal(inputSchema[In]())
	if err != nil {
		panic(err)
	}
	outJSON, err := json.Marshal(outSchema())
	if err != nil {
		panic(err)
	}
	return string(inJSON), string(outJSON)
}

// inputSchema infers the schema of In. Optional arguments are pointers
// (absent and empty differ) but never accept null; unknown arguments are
// ignored like upstream's, not refused.
func inputSchema[In any]() *jsonschema.Schema {
	s, err := jsonschema.For[In](nil)
	if err != nil {
		panic(err)
	}
	s.AdditionalProperties = nil
	for name, p := range s.Properties {
		if i := slices.Index(p.Types, "null"); i >= 0 && len(p.Types) == 2 {
			p.Type, p.Types = p.Types[1-i], nil
		}
		if name == "since" {
			p.Minimum = new(float64)
		}
	}
	tidySchema(s)
	return s
}

// outputSchema infers the schema of Out.
func outputSchema[Out any]() *jsonschema.Schema {
	s, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(err)
	}
	tidySchema(s)
	return s
}

// closedSets are the values of the properties that have a closed set,
// wherever they appear.
var closedSets = map[string][]any{
	"priority": {"low", "normal", "high"},
	"file":     {"now", "decisions", "full"},
	"status":   {"offline", "available", "busy", "away", "dnd", "unknown"},
	"folder":   {"inbox", "archive"},
	"outcome":  {"moved", "idempotent"},
}

// tidySchema walks s: lists are never null (st always sends an array or
// omits the key), and properties with a closed set of values get it.
func tidySchema(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" && s.Types[1] == "array" {
		s.Type, s.Types = "array", nil
	}
	for name, p := range s.Properties {
		if e, ok := closedSets[name]; ok && p.Enum == nil && (p.Type == "string" || slices.Contains(p.Types, "string")) {
			p.Enum = e
		}
		tidySchema(p)
	}
	tidySchema(s.Items)
}

// errorPayload is _meta["st/error"] of an error result.
type errorPayload struct {
	Code    string          `json:"code"`
	Message string          `json:"message"`
	Details json.RawMessage `json:"details,omitempty"`
}

// errorResult is the tool result for err: "<CODE>: <message>" as text and
// the code, message and details under _meta["st/error"].
func errorResult(err error) *mcp.CallToolResult {
	p := errorPayload{Code: sterr.Internal, Message: err.Error()}
	var e *sterr.Error
	if errors.As(err, &e) && e.Code != "" {
		p.Code, p.Message = e.Code, e.Message
		p.Details = orderedDetails(e.Details)
	}
	return &mcp.CallToolResult{
		IsError: true,
		Content: []mcp.Content{&mcp.TextContent{Text: p.Code + ": " + p.Message}},
		Meta:    mcp.Meta{"st/error": p},
	}
}

// detailKeys is the order of details keys in st-compat.md §5.1.
var detailKeys = []string{"identity", "filename", "value", "stage", "exitCode", "stderr", "path", "reason"}

// orderedDetails marshals details with its keys in the documented order
// (any other keys last, sorted); nil when there are none.
func orderedDetails(d map[string]any) json.RawMessage {
	if len(d) == 0 {
		return nil
	}
	keys := slices.Clone(detailKeys)
	var rest []string
	for k := range d {
		if !slices.Contains(detailKeys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	keys = append(keys, rest...)
	out := []byte{'{'}
	for _, k := range keys {
		v, ok := d[k]
		if !ok {
			continue
		}
		kb, _ := jsstr.Marshal(k)
		vb, err := jsstr.Marshal(v)
		if err != nil {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(append(append(out, kb...), ':'), vb...)
	}
	return append(out, '}')
}

// agent resolves an identity argument: absent or empty → the server's
// agent; otherwise the name, grammar-checked. Folder policy is applied
// by the caller (see layout.Apply).
func (s *server) agent(v *string) (string, error) {
	if v == nil || *v == "" {
		return s.cfg.Agent, nil
	}
	return *v, layout.CheckAgent(*v)
}

// hosted resolves an identity argument and applies policy p.
func (s *server) hosted(v *string, p layout.Policy) (string, error) {
	id, err := s.agent(v)
	if err != nil {
		return "", err
	}
	return id, layout.Apply(s.cfg.Root, id, p)
}

// tree opens the store root, creating it if needed.
func (s *server) tree() (*fsutil.Tree, error) { return fsutil.OpenOrCreate(s.cfg.Root) }

// readTree opens the store root for reading; nil when it does not exist.
func (s *server) readTree() *fsutil.Tree {
	t, err := fsutil.Open(s.cfg.Root)
	if err != nil {
		return nil
	}
	return t
}

func closeTree(t *fsutil.Tree) {
	if t != nil {
		t.Close()
	}
}

// plural returns "1 <one>" or "<n> <many>".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// addTools registers the 13 tools of the contract, the 3 reservation
// tools, search and ack, and st_msg_reply in channel mode.
func (s *server) addTools() {
	s.addSend()
	s.addMessageTools()
	s.addAgents()
	s.addResourceTools()
	s.addContextTools()
	s.addReserveTools()
	s.addSearch()
	s.addAck()
	if s.cfg.Channel {
		s.addReply()
	}
}
