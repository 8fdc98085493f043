package mcp

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// heldResults keeps the structured content of tool results out of the
// SDK's encoder until the connection writes the reply.
//
// st encodes structuredContent itself (key order, JSON.stringify's
// escapes) and hands the SDK the bytes, but the SDK re-reads them three
// times on the way out: the result's MarshalJSON, the reply's encoder
// around it and the JSON-RPC message around that each re-validate and
// copy every byte. For st_reservations over 1,000 reservations (250 KB)
// that was more CPU than parsing the reservations. So the SDK carries a
// short placeholder string instead, and the connection puts the held
// bytes in its place as it writes the reply: the same JSON, encoded once.
//
// The SDK replies to every call, so a held value leaves with its reply;
// only a reply that can no longer be written (the client gone) leaves
// one behind, for the few moments until the process exits.
type heldResults struct {
	mu   sync.Mutex
	next uint64
	held map[uint64][]byte
}

// heldKey starts the placeholder as it appears in an encoded result.
// Outside a string a `"` is structure, and inside one it is escaped, so
// this never matches text a tool returned.
const heldKey = `"structuredContent":"st:held:`

// hold keeps raw, which must be valid compact JSON, and returns the
// placeholder to give the SDK as the structured content.
func (h *heldResults) hold(raw []byte) json.RawMessage {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.held == nil {
		h.held = map[uint64][]byte{}
	}
	h.next++
	h.held[h.next] = raw
	return json.RawMessage(`"st:held:` + strconv.FormatUint(h.next, 10) + `"`)
}

// splice returns result with a placeholder's held bytes in its place, and
// result itself when it has none (or one this server does not hold).
func (h *heldResults) splice(result []byte) []byte {
	i := bytes.Index(result, []byte(heldKey))
	if i < 0 {
		return result
	}
	start := i + len(heldKey) - len(`"st:held:`) // the placeholder's opening quote
	digits := i + len(heldKey)
	end := bytes.IndexByte(result[digits:], '"')
	if end < 0 {
		return result
	}
	end += digits
	n, err := strconv.ParseUint(string(result[digits:end]), 10, 64)
	if err != nil {
		return result
	}
	h.mu.Lock()
	raw, ok := h.held[n]
	delete(h.held, n)
	h.mu.Unlock()
	if !ok {
		return result
	}
	out := make([]byte, 0, len(result)-(end+1-start)+len(raw))
	out = append(out, result[:start]...)
	out = append(out, raw...)
	return append(out, result[end+1:]...)
}

// pending is how many values are held (for tests).
func (h *heldResults) pending() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.held)
}
