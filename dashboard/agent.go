package dashboard

import (
	"html/template"
	"slices"
	"strings"
	"time"

	agentctx "github.com/smalltalk-go/st/context"
	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/layout"
	"github.com/smalltalk-go/st/message"
)

// folderShow is how many of a folder's newest messages an agent page
// lists; bodyShow caps each body there (the message page shows it all).
const (
	folderShow = 100
	bodyShow   = 8 << 10
	listRead   = 64 << 10 // the prefix of a message read for the list
)

// Msg is one message as the pages show it.
type Msg struct {
	Agent     string // the folder's agent
	Folder    string // inbox or archive
	Name      string
	Time      time.Time
	From      string
	Subject   string
	InReplyTo string
	Tags      []string
	Priority  string
	Body      string
	Cut       bool  // Body was capped
	Outside   bool  // dropped in by hand, no frontmatter
	TooLarge  int64 // the file's size when it is over the maximum shown
}

// TooLargeNote says why only the head of the message is shown.
func (m Msg) TooLargeNote() string { return layout.TooLargeNote(m.TooLarge) }

// Link is the message page of m.
func (m Msg) Link() string { return "/agent/" + m.Agent + "/message/" + m.Name }

// FromAgent reports whether From names an agent (so it can be linked and
// replied to).
func (m Msg) FromAgent() bool { return layout.ValidAgent(m.From) }

// Folder lists a folder's newest messages.
type Folder struct {
	Name  string
	Msgs  []Msg // newest first
	Total int
}

// AgentView is everything an agent page's live section shows.
type AgentView struct {
	Row       Row
	Now       template.HTML
	HasNow    bool
	Decisions template.HTML
	HasDec    bool
	Inbox     Folder
	Archive   Folder
	Timeline  Timeline
}

func (s *Server) agentView(id string) AgentView {
	v := AgentView{}
	if r, ok := s.fleet.Row(id); ok {
		v.Row = r
	} else {
		v.Row = Row{ID: id, Status: "offline"}
		v.Row.attend(s.cfg.Now())
	}
	limit := s.maxBytes()
	if text, size, ok := agentctx.ReadNowWithin(s.t, id, limit); ok {
		if size > 0 {
			text = "*" + layout.TooLargeNote(size) + "*"
		}
		v.Now, v.HasNow = renderMarkdown(s.md, text), true
	}
	note := func(size int64) string { return "*" + layout.TooLargeNote(size) + "*" }
	if text, ok := agentctx.DecisionsWithin(s.t, id, limit, note); ok {
		v.Decisions, v.HasDec = renderMarkdown(s.md, text), true
	}
	v.Inbox = readFolder(s.t, id, inbox.Inbox, folderShow)
	v.Archive = readFolder(s.t, id, inbox.Archive, folderShow)
	v.Timeline = readTimeline(s.t, id)
	return v
}

// readFolder reads the newest n deliverable messages of id's folder,
// through one handle on the folder.
func readFolder(t *fsutil.Tree, id, folder string, n int) Folder {
	f := Folder{Name: folder}
	names, err := inbox.List(t, id, folder)
	if err != nil {
		return f
	}
	f.Total = len(names)
	names = names[max(0, len(names)-n):]
	slices.Reverse(names)
	dir, err := t.OpenFolder(id + "/" + folder)
	if err != nil {
		return f
	}
	defer dir.Close()
	for _, name := range names {
		// The list shows the head of each body: a big message costs no
		// more than a small one.
		data, size, err := dir.ReadPrefix(name, listRead)
		if err != nil {
			continue
		}
		m := newMsg(t, id, folder, name, data, bodyShow)
		m.Cut = m.Cut || size > int64(len(data))
		f.Msgs = append(f.Msgs, m)
	}
	return f
}

// readMsg reads one message of at most limit bytes without changing
// anything (inbox.Read's lazy sweep is the owner's business). A bigger
// one is shown with its head only and TooLarge set to its size.
func readMsg(t *fsutil.Tree, id, folder, name string, limit int64) (Msg, bool) {
	rel := id + "/" + folder + "/" + name
	data, fi, err := t.ReadRange(rel, 0, limit+1)
	if err != nil {
		return Msg{}, false
	}
	if fi.Size() > limit {
		m := newMsg(t, id, folder, name, data[:min(int64(len(data)), listRead)], bodyShow)
		m.Cut, m.TooLarge = true, fi.Size()
		return m, true
	}
	return newMsg(t, id, folder, name, data, 0), true
}

// newMsg parses a message file; limit caps the body (0: none).
func newMsg(t *fsutil.Tree, id, folder, name string, data []byte, limit int) Msg {
	p := inbox.Project(name, inbox.Text(data))
	m := Msg{Agent: id, Folder: folder, Name: name, From: p.From, Subject: p.Subject, InReplyTo: p.InReplyTo,
		Tags: p.Tags, Priority: p.Priority, Body: p.Body, Outside: message.IsOutside(name)}
	if message.IsCanonical(name) {
		m.Time = time.UnixMilli(message.Timestamp(name))
	} else if fi, err := t.Lstat(id + "/" + folder + "/" + name); err == nil {
		m.Time = fi.ModTime()
	}
	if limit > 0 && len(m.Body) > limit {
		m.Body, m.Cut = strings.ToValidUTF8(m.Body[:limit], ""), true
	}
	return m
}

// MessageView is the message page: one message and its thread.
type MessageView struct {
	Msg    Msg
	Thread []ThreadItem
	Err    string // why the thread is missing
}

// ThreadItem is one message of a thread.
type ThreadItem struct {
	inbox.ThreadLine
	Linkable bool // its folder's agent is a valid name
	Current  bool
}

// Link is the message page of the thread item.
func (i ThreadItem) Link() string { return "/agent/" + i.Where.ID + "/message/" + i.Name }

// Indent is the item's depth as a CSS class suffix, capped.
func (i ThreadItem) Indent() int { return min(i.Depth, 12) }

func (s *Server) messageView(id, name string) (MessageView, bool) {
	loc, err := inbox.Locate(s.t, id, name, false)
	if err != nil {
		return MessageView{}, false
	}
	if loc.Folder == inbox.Inbox && inbox.IsArchivedTwin(s.t, id, name) {
		loc.Folder = inbox.Archive // archived; a sync brought the inbox copy back
	}
	m, ok := readMsg(s.t, id, loc.Folder, name, s.maxBytes())
	if !ok {
		return MessageView{}, false
	}
	v := MessageView{Msg: m}
	if !message.IsCanonical(name) {
		return v, true
	}
	lines, err := inbox.Thread(s.t, name, true)
	if err != nil {
		v.Err = err.Error()
		return v, true
	}
	for _, l := range lines {
		v.Thread = append(v.Thread, ThreadItem{ThreadLine: l, Linkable: layout.ValidAgent(l.Where.ID), Current: l.Name == name})
	}
	return v, true
}
