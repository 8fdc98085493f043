package mcp

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/smalltalk-go/st/inbox"
	"github.com/smalltalk-go/st/internal/fsutil"
	"github.com/smalltalk-go/st/internal/sterr"
	"github.com/smalltalk-go/st/internal/termsafe"
	"github.com/smalltalk-go/st/message"
	"github.com/smalltalk-go/st/watch"
)

// channelLoop notifies the client of every deliverable file in the
// agent's inbox exactly once for the life of the server: the ones there
// at start, then each new one, in filename order per batch. fsnotify
// wakes it promptly; the polling backstop catches what events miss.
func (s *server) channelLoop(ctx context.Context) {
	dir := filepath.Join(s.cfg.Root, s.cfg.Agent, inbox.Inbox)
	w := watch.New(s.cfg.BackstopEvery)
	defer func() { _ = w.Close() }() // the channel is over; nothing to report
	w.Watch(dir)
	s.debugf("watching %s (backstop %s)", dir, s.cfg.BackstopEvery)
	select {
	case <-s.ready:
	case <-ctx.Done():
		return
	}
	seen := map[string]bool{}
	for {
		w.Watch(dir) // again, in case the folder was recreated
		s.deliverNew(ctx, seen)
		select {
		case <-ctx.Done():
			return
		case <-w.Wake():
		}
	}
}

// deliverNew lists the inbox and notifies each deliverable name not
// seen yet, in byte order. A file that vanished before its turn is
// skipped.
func (s *server) deliverNew(ctx context.Context, seen map[string]bool) {
	t, err := fsutil.Open(s.cfg.Root)
	if err != nil {
		return
	}
	defer t.Close()
	rel := s.cfg.Agent + "/" + inbox.Inbox
	names, err := t.ReadDirNames(rel)
	if err != nil {
		return
	}
	fresh := inbox.Pushable(t, s.cfg.Agent, slices.DeleteFunc(names, func(n string) bool { return seen[n] }))
	slices.Sort(fresh)
	for _, n := range fresh {
		if ctx.Err() != nil {
			return
		}
		seen[n] = true
		f, ok := s.pushFrame(t, rel, n)
		if !ok {
			continue
		}
		if err := s.sendFrame(ctx, f); err != nil {
			s.debugf("notify %s failed: %v", n, err)
			continue
		}
		s.debugf("notified %s", n)
	}
}

// pushFrame is the frame that announces inbox file name of folder rel:
// the message itself, or, for one over the maximum message size, its
// header with a note in place of the body, so the model still learns it
// arrived and how to read it. ok is false when it cannot be read.
func (s *server) pushFrame(t *fsutil.Tree, rel, name string) (f frame, ok bool) {
	data, err := inbox.ReadFile(t, rel+"/"+name, s.cfg.MaxMessageBytes)
	if sterr.CodeOf(err) == sterr.MessageTooLarge {
		head, ok := inbox.ReadHead(t, rel+"/"+name)
		if !ok {
			return frame{}, false
		}
		s.debugf("%s: %v", name, err)
		text := inbox.Text(head)
		_, body, _ := message.Parse(text) // a small file's head is all of it
		note := "[" + err.Error() + "; read it with `st message read " + name + "`]\n"
		return s.messageFrame(name, text[:len(text)-len(body)]+note), true
	}
	if err != nil {
		s.debugf("skip %s: %v", name, err)
		return frame{}, false
	}
	return s.messageFrame(name, string(data)), true
}

// messageFrame builds the channel frame for inbox file name with text.
func (s *server) messageFrame(name, text string) frame {
	meta := messageMeta{MessageFilename: name, ThreadFilename: name, Identity: s.cfg.Agent}
	if !message.IsCanonical(name) {
		meta.From = "outside"
		return frame{
			Content: "[outside .md — non-canonical filename: " + termsafe.Line(name) + "]\n\n" + termsafe.Text(text),
			Meta:    meta,
		}
	}
	fields, body, _ := message.Parse(text)
	meta.From = termsafe.Line(fields["from"])
	if meta.From == "" {
		meta.From = "unknown"
	}
	irt, ok := fields["in-reply-to"]
	if !ok {
		irt = fields["inReplyTo"]
	}
	if message.IsCanonical(irt) {
		meta.ThreadFilename = irt
	}
	// The sender wrote subject and body: no escape sequence of theirs
	// reaches the model, nor a newline that forges a header line.
	content := termsafe.Text(body)
	if subj := fields["subject"]; subj != "" {
		content = "Subject: " + termsafe.Line(subj) + "\n\n" + content
	}
	return frame{Content: content, Meta: meta}
}

// debugf writes a [st-channel] line when ST_CHANNEL_DEBUG=1.
func (s *server) debugf(format string, args ...any) {
	if s.cfg.Debug == nil {
		return
	}
	line := fmt.Sprintf(format, args...)
	line = strings.ReplaceAll(line, "\n", " ")
	fmt.Fprintf(s.cfg.Debug, "[st-channel] %s %s\n", time.Now().UTC().Format("2006-01-02T15:04:05.000Z"), line)
}
