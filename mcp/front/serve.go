// Package front is st-mcp's front: it answers a session's opening,
// initialize and tools/list (in channel mode also the refusal of a
// server/discover probe, discover.go), from bytes made at build time
// (gen.go), and hands the session to the SDK server, st-mcp-server, at
// the first message it cannot answer (in channel mode also at the first
// message in the agent's inbox, channel.go). A client starts the server and
// lists its tools at every session's start, whether or not it calls one;
// the SDK's initialisers alone (net/http, TLS, JSON schemas) cost more
// than the whole opening, so this package links nothing of the SDK
// (docs/performance.md). The bytes are the SDK's own answers for each
// protocol revision it supports, which package mcp's TestFrontGenerated
// checks, so a client cannot tell the two apart.
package front

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Handover is what the SDK server needs to take over a session the front
// opened: the opening to replay into the SDK, and the client's bytes the
// front read and did not answer, the first message the SDK must serve
// first among them.
type Handover struct {
	Agent     string `json:"agent"`
	Throwaway bool   `json:"throwaway,omitempty"`
	// Initialize is the params of the initialize request the front
	// answered; nil when it answered none.
	Initialize  json.RawMessage `json:"initialize,omitempty"`
	Initialized bool            `json:"initialized,omitempty"` // notifications/initialized came
	Ready       bool            `json:"ready,omitempty"`       // the client finished its handshake
	Rest        []byte          `json:"rest,omitempty"`        // the client's bytes not answered yet

	// Channel says the front answers as the server in channel mode does
	// (ChannelInitialize, ChannelToolsList); the server knows its mode
	// from its own arguments.
	Channel bool `json:"-"`
}

// Serve answers the opening from r on out until a line needs the SDK,
// or until reading from r passes a deadline the caller set (it wants
// the server now), and returns the handover for it (Agent left to the
// caller); nil with the error that ended the input (io.EOF for an
// orderly end) or a write. ready runs once the client has finished its
// handshake; channel is Handover.Channel.
func Serve(r *Reader, out io.Writer, ready func(), channel bool) (*Handover, error) {
	h := Handover{Channel: channel}
	for {
		line, err := r.Line()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			h.Rest = append(line, r.Buffered()...) // a line read in part is the server's to finish
			return &h, nil
		}
		if len(line) > 0 {
			handover, werr := h.Answer(line, out)
			if werr != nil {
				return nil, fmt.Errorf("writing to the client: %w", werr)
			}
			if h.Ready {
				ready()
			}
			if handover {
				h.Rest = append(append(line, '\n'), r.Buffered()...)
				return &h, nil
			}
		}
		var tooLarge ErrFrameTooLarge
		switch {
		case err == nil:
		case errors.Is(err, io.EOF), errors.As(err, &tooLarge):
			return nil, err
		default:
			return nil, fmt.Errorf("reading from the client: %w", err)
		}
	}
}

// Answer answers one line of the opening when the front can, and
// reports whether the SDK must instead.
func (h *Handover) Answer(line []byte, out io.Writer) (handover bool, err error) {
	if len(bytes.TrimSpace(line)) == 0 {
		return false, nil
	}
	r, ok := parse(line)
	if ok && r.method == "server/discover" && r.id != nil && h.Channel {
		if v := modernRevision(r.params); v != "" {
			_, err := out.Write(ErrorFrame(r.id, channelRefusal(v)))
			return false, err
		}
	}
	var answer string
	switch {
	case !ok:
	case r.method == "initialize" && h.Initialize == nil && r.id != nil && h.Channel:
		answer = ChannelInitialize(OfferedVersion(r.params))
	case r.method == "initialize" && h.Initialize == nil && r.id != nil:
		answer = Initialize(OfferedVersion(r.params))
	case r.method == "notifications/initialized" && h.Initialize != nil && !h.Initialized && r.id == nil:
		h.Initialized, h.Ready = true, true
		return false, nil
	case r.method == "tools/list" && h.Initialize != nil && r.id != nil && plainListParams(r.params) && h.Channel:
		answer = ChannelToolsList
	case r.method == "tools/list" && h.Initialize != nil && r.id != nil && plainListParams(r.params):
		answer = ToolsList
	}
	if answer == "" {
		if reply := BadFrame(line); reply != nil {
			_, err := out.Write(append(reply, '\n'))
			return false, err
		}
		return true, nil
	}
	if _, err := out.Write(ResultFrame(r.id, answer)); err != nil {
		return false, err
	}
	if r.method == "initialize" {
		h.Initialize = r.params
	} else {
		h.Ready = true
	}
	return false, nil
}
