// Package dashboard serves `st dashboard`: one live web page of the whole
// fleet and one page per agent, read from the store with the same
// packages the CLI uses (status, inbox, context, agents, events), plus
// two operator actions, sending a message and setting a status, that go
// through the same validation and Maildir delivery as the CLI.
//
// # Model
//
// The server keeps a summary row per agent (status, unread count, last
// activity, now.md's first line, and what its newest session log says:
// waiting on a human, stopped by an API error, thrashing, context fill,
// last tool, a sparkline), built once at start and then refreshed one
// agent at a time (the log is followed from where the last look ended): fsnotify names the folder
// that changed, so an arrival costs one agent's rescan, never the
// fleet's. A polling backstop compares each agent's folder times every
// few seconds for changes made without events (sync tools, network
// filesystems) and re-derives statuses, which turn unknown with age
// alone. Each row falls in an attention group (attention.go) that
// orders the fleet page, trouble first. The first paint renders from
// these rows; agent pages read one
// agent on request, and event logs only from their tails, so a log of
// any size costs the same.
//
// Every change bumps a version; browsers follow it over server-sent
// events (one stream per page, resumed from Last-Event-ID) and receive
// the re-rendered row or agent section. Nothing polls from the browser.
//
// # Trust
//
// Everything shown was written by agents and is treated as hostile:
// html/template escapes it, now.md goes through goldmark with raw HTML
// and dangerous links dropped, every agent and file name in a URL is
// checked with the CLI's validators and read through fsutil.Tree, which
// cannot leave $ST_ROOT. Responses carry a restrictive
// Content-Security-Policy (scripts only from the server itself); posts
// need the page's CSRF token and must come from the page's own origin;
// requests must name a loopback Host unless remote access was allowed,
// which stops DNS rebinding.
package dashboard
