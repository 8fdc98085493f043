package front

import "encoding/json"

// ModernProtocol is the first MCP revision without the initialize
// handshake (SEP-2575): its requests carry their revision in _meta, and
// the server may speak only in answer to a request. A channel refuses
// it (package mcp, handshakeVersions), so that a client probing with
// server/discover, as Claude Code does first in every session, falls
// back to initialize.
const ModernProtocol = "2026-07-28"

// The keys of a modern request's _meta.
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// channelRefusal is the SDK's error, in channel mode, for a request in
// revision v of the modern protocol; v is plain (modernRevision), so it
// needs no escaping.
func channelRefusal(v string) string {
	return ChannelRefusal + `"` + v + `"}}`
}

// modernRevision is the revision a server/discover's params ask for when
// the SDK, in channel mode, would refuse it with channelRefusal: a
// revision of the modern protocol, in params that hold nothing the SDK
// could refuse first or read differently. That is only _meta, spelled so,
// with the revision, the client's capabilities and, if present, its
// identity, each of a shape the SDK's types take; and a revision of
// letters, digits, dots and dashes, which encodes the same in any JSON
// encoder. Otherwise it is "", which leaves the request to the SDK: what
// the front is unsure of costs only the SDK's start.
func modernRevision(params json.RawMessage) string {
	var top map[string]json.RawMessage
	if json.Unmarshal(params, &top) != nil || len(top) != 1 {
		return ""
	}
	var meta map[string]json.RawMessage
	if json.Unmarshal(top["_meta"], &meta) != nil {
		return ""
	}
	var version string
	for k, v := range meta {
		ok := true
		switch k {
		case metaProtocolVersion:
			ok = json.Unmarshal(v, &version) == nil
		case metaClientCapabilities:
			ok = string(v) != "null" && plainCapabilities(v)
		case metaClientInfo:
			ok = string(v) != "null" && plainClientInfo(v)
		default:
			return ""
		}
		if !ok {
			return ""
		}
	}
	if _, ok := meta[metaClientCapabilities]; !ok || version < ModernProtocol || !plainRevision(version) {
		return ""
	}
	return version
}

// plainRevision reports whether v holds only ASCII letters, digits, dots
// and dashes.
func plainRevision(v string) bool {
	for i := range len(v) {
		c := v[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}
