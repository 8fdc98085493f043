package hooks

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/status"
)

// Policy is what stop-failure does for one failure type: set the agent's
// status (State "" = leave it) and maybe message the operator.
type Policy struct {
	State    string
	Notify   bool
	Priority string // "" or low, normal, high
	subject  func(id, typ string) string
	body     func(id, typ, state string) string
}

// defaultPolicy is st-compat.md §7.4's table: the row for failure type
// typ, and whether it has one (catchAll covers the rest). A switch, not
// a map, so that st builds nothing for it at start-up.
func defaultPolicy(typ string) (Policy, bool) {
	switch typ {
	case "rate_limit", "overloaded":
		return Policy{State: "away"}, true
	case "server_error":
		return Policy{State: "away", Notify: true, subject: wedgedSubject, body: serverErrorBody}, true
	case "authentication_failed", "oauth_org_not_allowed",
		// Not in the contract's table: Claude Code 2.1.328 sends these
		// too (e2e/claudecode), and each needs a human as an auth
		// failure does.
		"account_on_hold", "verification_required", "cloud_credential_error":
		return Policy{State: "offline", Notify: true, Priority: "high", subject: authSubject, body: authBody}, true
	case "billing_error":
		return Policy{State: "offline", Notify: true, Priority: "high", subject: billingSubject, body: billingBody}, true
	case "max_output_tokens", "invalid_request", "model_not_found":
		return Policy{}, true
	}
	return Policy{}, false
}

var catchAll = Policy{State: "away", Notify: true, subject: wedgedSubject, body: unhandledBody}

func wedgedSubject(id, typ string) string  { return fmt.Sprintf("agent %s wedged: %s", id, typ) }
func authSubject(id, typ string) string    { return fmt.Sprintf("agent %s: auth failed (%s)", id, typ) }
func billingSubject(id, typ string) string { return fmt.Sprintf("agent %s: billing issue", id) }

func serverErrorBody(id, typ, state string) string {
	return fmt.Sprintf("Agent %s ended a turn on server_error (transient Anthropic-side issue). %s No action required unless the wedge persists.", id, stateSentence(state))
}

func authBody(id, typ, state string) string {
	return fmt.Sprintf("Agent %s cannot continue — error_type=%s. %s Requires human intervention (check API key, org membership, OAuth state).", id, typ, stateSentence(state))
}

func billingBody(id, typ, state string) string {
	return fmt.Sprintf("Agent %s hit a billing_error and cannot continue. %s Check billing status in the Anthropic console.", id, stateSentence(state))
}

func unhandledBody(id, typ, state string) string {
	return fmt.Sprintf("Agent %s ended a turn on an unhandled error_type=%s. %s Worth checking — this is an error_type the st StopFailure hook policy doesn't yet recognize.", id, typ, stateSentence(state))
}

// tunedBody is the body for a type the table sends nothing for but the
// config file asks to notify.
func tunedBody(id, typ, state string) string {
	return fmt.Sprintf("Agent %s ended a turn on error_type=%s. %s", id, typ, stateSentence(state))
}

func stateSentence(state string) string {
	if state == "" {
		return "Status unchanged."
	}
	return "Status set to " + state + "."
}

// PolicyFor returns the policy for failure type typ: the table's row (or
// the catch-all), tuned by the config file's stop-failure entry for typ
// (or "*" for the catch-all).
func PolicyFor(typ string, cfg Config) Policy {
	p, known := defaultPolicy(typ)
	key := typ
	if !known {
		p, key = catchAll, "*"
	}
	if tune, ok := cfg.StopFailure[key]; ok {
		if tune.State != nil {
			p.State = *tune.State
		}
		if tune.Notify != nil {
			p.Notify = *tune.Notify
		}
		if tune.Priority != nil {
			p.Priority = *tune.Priority
		}
	}
	if p.Notify && p.subject == nil {
		p.subject, p.body = wedgedSubject, tunedBody
	}
	return p
}

// FailureType reads the failure type from a StopFailure payload: the
// first usable of "error" (what Claude Code sends) and "error_type" (what
// upstream read), else "unknown". A non-empty string is used as is;
// another scalar other than null and false as its JSON text. The result
// is refined by the HTTP status in "last_assistant_message"
// (RefineFailure).
func FailureType(payload []byte) string {
	var obj map[string]json.RawMessage
	if json.Unmarshal(payload, &obj) != nil || obj == nil {
		return "unknown"
	}
	var last string
	_ = json.Unmarshal(obj["last_assistant_message"], &last) // absent or malformed: the zero value is the answer
	for _, key := range []string{"error", "error_type"} {
		if v, ok := usable(obj[key]); ok {
			return RefineFailure(v, last)
		}
	}
	return RefineFailure("unknown", last)
}

// refinements map what Claude Code 2.1.328 sends for an HTTP status to
// the type st's policy has a row for: it reports an overloaded 529 as
// server_error and a 400 as unknown (e2e/claudecode/testdata/payloads,
// StopFailure-529.json and StopFailure-400.json).
var refinements = []struct {
	sent   string
	status string
	typ    string
}{
	{"server_error", "529", "overloaded"},
	{"unknown", "400", "invalid_request"},
}

// RefineFailure returns the failure type for a StopFailure whose client
// sent typ with lastMessage, "API Error: <status> …" for an API error.
func RefineFailure(typ, lastMessage string) string {
	rest, ok := strings.CutPrefix(lastMessage, "API Error: ")
	if !ok || len(rest) < 3 || len(rest) > 3 && rest[3] != ' ' {
		return typ
	}
	for _, r := range refinements {
		if r.sent == typ && r.status == rest[:3] {
			return r.typ
		}
	}
	return typ
}

func usable(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 {
		return "", false
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch x := v.(type) {
	case string:
		return x, x != ""
	case bool:
		return "true", x
	case float64:
		return jsNumber(raw, x), true
	case nil:
		return "", false
	default: // objects and arrays: jq -r prints their JSON
		b, err := json.Marshal(x)
		return string(b), err == nil
	}
}

// jsNumber prints a JSON number the way jq -r does for common values.
func jsNumber(raw json.RawMessage, x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e17 {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strings.TrimSpace(string(raw))
}

func runStopFailure(stdin []byte, opt Options) Result {
	if opt.Agent == "" {
		return Result{}
	}
	id := opt.Agent
	typ := FailureType(stdin)
	cfg := opt.Config
	p := PolicyFor(typ, cfg)
	var out, errs strings.Builder
	if p.State != "" {
		if err := setFailureStatus(opt.Root, id, sessionOf(stdin), p.State); err != nil {
			errs.WriteString(errLine(err))
		} else {
			fmt.Fprintf(&out, "status: %s\n", p.State)
		}
	}
	if p.Notify {
		notify(opt, cfg, id, typ, p, &out, &errs)
	}
	return Result{Stdout: []byte(out.String()), Stderr: []byte(errs.String())}
}

// notify sends the policy's message unless the same failure was reported
// within the burst window. Claude Code fires StopFailure for parallel
// subagents too, so the check and the send hold a per-agent lock.
func notify(opt Options, cfg Config, id, typ string, p Policy, out, errs *strings.Builder) {
	if t, err := fsutil.OpenOrCreate(opt.Root); err == nil {
		unlock, err := t.Lock(context.Background(), "stop-failure-"+id)
		t.Close()
		if err == nil {
			defer unlock()
		}
	}
	if !recentlySent(opt, typ) {
		to := cfg.Recipient(opt.Operator)
		m := message.Message{From: id, Subject: p.subject(id, typ), Priority: p.Priority, Body: []byte(p.body(id, typ, p.State))}
		name, err := send(opt.Root, to, m, opt.Now())
		if err != nil {
			errs.WriteString(errLine(err))
		} else {
			fmt.Fprintln(out, name)
			markSent(opt, typ)
		}
	}
}

// setFailureStatus is `st status <id> --set <state>` (folders created,
// then set), remembering in the session's state what the status was so
// that the session's next Stop can put it back (failure_status.go).
func setFailureStatus(root, id, session, state string) error {
	if err := layout.EnsureAgent(root, id); err != nil {
		return err
	}
	t, err := fsutil.OpenOrCreate(root)
	if err != nil {
		return err
	}
	defer t.Close()
	before := statusNow(t, id)
	if err := status.Set(t, id, state); err != nil {
		return err
	}
	ctx, cancel := hookCtx()
	defer cancel()
	_ = NoteFailureStatus(ctx, t, id, session, before, state) // best effort: the next Stop restores the status without it
	return nil
}

// sessionOf is the session_id of a payload, "" when it has none.
func sessionOf(payload []byte) string {
	p, _ := ParsePayload(payload)
	return p.SessionID
}

// send is `st message send <to> [--priority P] --subject S -m B` from m.From.
func send(root, to string, m message.Message, now time.Time) (string, error) {
	if err := layout.CheckAgent(to); err != nil {
		return "", err
	}
	if m.Priority != "" && !message.ValidPriority(m.Priority) {
		m.Priority = ""
	}
	if err := layout.EnsureAgent(root, m.From); err != nil {
		return "", err
	}
	t, err := fsutil.OpenOrCreate(root)
	if err != nil {
		return "", err
	}
	defer t.Close()
	return inbox.Send(t, to, m, now)
}

const defaultWindowS = 600

func lastPath(id string) string { return id + "/context/.stop-failure-last" }

// window parses ST_STOPFAILURE_WINDOW_S (seconds, default 600).
func window(v string) time.Duration {
	s, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || s < 0 || s > 1e9 {
		s = defaultWindowS
	}
	return time.Duration(s * float64(time.Second))
}

// recentlySent reports whether the same failure type was messaged about
// for this agent within the burst window.
func recentlySent(opt Options, typ string) bool {
	t, err := fsutil.Open(opt.Root)
	if err != nil {
		return false
	}
	defer t.Close()
	data, err := readSmall(t, lastPath(opt.Agent))
	if err != nil {
		return false
	}
	line := strings.TrimSuffix(string(data), "\n")
	i := strings.LastIndexByte(line, ' ')
	if i < 0 || line[:i] != typ {
		return false
	}
	ms := line[i+1:]
	at, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return false
	}
	age := opt.Now().UnixMilli() - at
	return age >= 0 && time.Duration(age)*time.Millisecond < window(opt.StopFailureWindowS)
}

// markSent records the message just sent; failures, and a crash losing
// the write (so a hint, fsutil.WriteHint), only cost a repeat.
func markSent(opt Options, typ string) {
	t, err := fsutil.OpenOrCreate(opt.Root)
	if err != nil {
		return
	}
	defer t.Close()
	if t.MkdirAll(opt.Agent+"/context") != nil {
		return
	}
	_ = t.WriteHint(lastPath(opt.Agent), fmt.Appendf(nil, "%s %d\n", typ, opt.Now().UnixMilli())) // best effort: the hook fails open
}
