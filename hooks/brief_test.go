package hooks

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/smalltalk-go/st/agents"
	"github.com/smalltalk-go/st/attention"
	"github.com/smalltalk-go/st/events"
	"github.com/smalltalk-go/st/fleet"
	"github.com/smalltalk-go/st/internal/fsutil"
)

// briefMember is one agent for the brief's table tests.
type briefMember struct {
	id, status string
	act        attention.Activity
}

func briefView(t *testing.T, now time.Time, ms []briefMember, hosts []fleet.Host, unacked []string) fleetView {
	t.Helper()
	list := make([]agents.Enriched, len(ms))
	scans := make([]agents.Scan, len(ms))
	seen := float64(now.UnixMilli())
	for i, m := range ms {
		list[i] = agents.Enriched{Agent: agents.Agent{Identity: m.id, Status: m.status}, LastActivity: &seen, Waiting: m.act.Waiting}
		scans[i].Activity = m.act
	}
	agents.Attend(nil, list, scans, now)
	agents.SortByAttention(list)
	return fleetView{self: "me", members: list, hosts: hosts, unacked: unacked}
}

func TestBriefText(t *testing.T) {
	now := time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)
	waiting := attention.Activity{
		Waiting: &events.Waiting{Type: "permission_prompt", Message: "Claude needs your permission to use Bash", Since: "2026-07-21T09:56:00.000Z"},
		Where:   attention.Where{Cwd: "/w/proj", Host: "vm1", Pane: "%7"},
	}
	apiErr := attention.Activity{APIError: &attention.APIError{Class: "overloaded", Attempt: 2, Since: now.Add(-12 * time.Minute)}}
	synced := now.Add(-3 * time.Hour).UnixMilli()
	quiet := []briefMember{{"me", "busy", attention.Activity{}}, {"a", "busy", attention.Activity{}}, {"b", "available", attention.Activity{}}, {"c", "offline", attention.Activity{}}}
	for _, tt := range []struct {
		name    string
		ms      []briefMember
		hosts   []fleet.Host
		unacked []string
		always  bool
		limit   int
		want    string
	}{
		{name: "quiet fleet, auto: nothing", ms: quiet, limit: 2000, want: ""},
		{name: "quiet fleet, always: the counts", ms: quiet, always: true, limit: 2000,
			want: "## st fleet: 3 other agents (1 busy, 1 available, 1 offline)\n\n"},
		{name: "the agent itself waiting is not news", ms: []briefMember{{"me", "busy", waiting}}, limit: 2000, want: ""},
		{name: "a waiting agent with its question and where to go",
			ms:    append([]briefMember{{"bob", "busy", waiting}, {"carol", "away", apiErr}}, quiet...),
			limit: 2000,
			want: "## st fleet: 5 other agents (2 need a person, 1 busy, 1 available, 1 offline)\n" +
				"- bob waiting on a human (4m): permission_prompt: \"Claude needs your permission to use Bash\" — go to /w/proj on vm1, tmux pane %7\n" +
				"- carol stopped by an API error (12m): overloaded, retry 2\n\n"},
		{name: "stale hosts and unacknowledged messages",
			ms:      quiet,
			hosts:   []fleet.Host{{Name: "here", Local: true, SyncedAt: &synced}, {Name: "db2", SyncedAt: &synced, Stale: true}},
			unacked: []string{"1-a.md", "2-b.md", "3-c.md", "4-d.md"},
			limit:   2000,
			want: "## st fleet: 3 other agents on 2 hosts (1 busy, 1 available, 1 offline, 1 stale host)\n" +
				"- host db2, synced 3h ago, STALE\n" +
				"- 4 messages ask you for an acknowledgement: 1-a.md, 2-b.md, 3-c.md, … (`st message ack <file>` once done)\n\n"},
		{name: "over its budget, lines are counted",
			ms:    append([]briefMember{{"bob", "busy", waiting}, {"carol", "away", apiErr}}, quiet...),
			limit: 160,
			want: "## st fleet: 5 other agents (2 need a person, 1 busy, 1 available, 1 offline)\n" +
				"- … 2 more lines left out (`st overview`)\n\n"},
		{name: "not even the header fits", ms: []briefMember{{"bob", "busy", waiting}}, limit: 20, want: ""},
	} {
		got := briefText(briefView(t, now, tt.ms, tt.hosts, tt.unacked), tt.always, now, tt.limit)
		if got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
		if len(got) > tt.limit {
			t.Errorf("%s: %d bytes over the limit %d", tt.name, len(got), tt.limit)
		}
	}
}

func TestBriefManyWaiting(t *testing.T) {
	now := time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)
	var ms []briefMember
	for i := range 12 {
		ms = append(ms, briefMember{string(rune('a'+i)) + "x", "busy", attention.Activity{Thrash: &attention.Thrash{Tool: "Bash", Failures: 3, Since: now}}})
	}
	got := briefText(briefView(t, now, ms, nil, nil), false, now, 4000)
	if n := strings.Count(got, " thrashing "); n != briefAgentsShown {
		t.Errorf("%d agents named, want %d:\n%s", n, briefAgentsShown, got)
	}
	if !strings.Contains(got, "- … and 4 more need a person (`st overview`)\n") {
		t.Errorf("no count of the rest:\n%s", got)
	}
}

func TestBriefConfig(t *testing.T) {
	for _, tt := range []struct{ yaml, want string }{
		{"", BriefAuto}, {"brief: off\n", BriefOff}, {"brief: Always\n", BriefAlways}, {"brief: auto\n", BriefAuto},
		{"brief: sometimes\n", BriefAuto}, {"brief: [1]\n", BriefAuto}, {"brief: false\n", BriefOff},
	} {
		if got := ParseConfig([]byte(tt.yaml)).Brief; got != tt.want {
			t.Errorf("%q: brief = %q, want %q", tt.yaml, got, tt.want)
		}
	}
}

// The brief cuts a notification at its first line and escapes what is
// left: an agent's question with escape or bell bytes reaches the model
// as visible text.
func TestBriefEscapesWhatAgentsWrote(t *testing.T) {
	now := time.Date(2026, 7, 21, 10, 0, 0, 0, time.UTC)
	waiting := attention.Activity{Waiting: &events.Waiting{Type: "permission_prompt",
		Message: "run \x1b]0;owned\a this\x1b[2J", Since: "2026-07-21T09:56:00.000Z"}}
	got := briefText(briefView(t, now, []briefMember{{"bob", "busy", waiting}}, nil, []string{"x\x1b[31m.md"}), false, now, 2000)
	if strings.ContainsAny(got, "\x1b\a") {
		t.Errorf("the brief holds a control byte: %q", got)
	}
	if !strings.Contains(got, `run \x1b]0;owned\x07 this`) || !strings.Contains(got, `x\x1b[31m.md`) {
		t.Errorf("the brief lost the text: %q", got)
	}
}

// The brief never speaks of its own agent, so it reads nothing of it:
// readFleet leaves the agent out before attending the others (their
// event logs read for what they wait on).
func TestBriefLeavesItsOwnAgentUnread(t *testing.T) {
	opt := testOptions(t)
	opt.Config = DefaultConfig()
	for _, id := range []string{"alice", "bob", "carol"} {
		writeFile(t, filepath.Join(opt.Root, id, "status"), "busy\n")
		writeFile(t, filepath.Join(opt.Root, id, "events", "s1.jsonl"), `{"ts":"2026-07-21T09:56:00.000Z","event":"SessionStart","session":"s1"}`+"\n")
	}
	tr, err := fsutil.Open(opt.Root)
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var got []string
	for _, m := range readFleet(tr, opt, fixed).members {
		got = append(got, m.Identity)
	}
	if want := []string{"bob", "carol"}; !slices.Equal(got, want) {
		t.Errorf("the brief of alice read %q, want %q", got, want)
	}
}
