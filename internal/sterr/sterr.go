// Package sterr defines the errors st reports to people and programs.
//
// An *Error carries a stable code (the MCP server reports it as
// "<CODE>: <message>"), the exact one-line message the CLI prints after
// "st: ", and optional details for MCP's _meta. Domain packages return
// these values; cmd/st maps them to exit codes in one place.
package sterr

import (
	"errors"
	"fmt"
)

// Codes from st-compat.md §5.1.
const (
	IdentityRequired            = "IDENTITY_REQUIRED"
	IdentityNotHosted           = "IDENTITY_NOT_HOSTED"
	InvalidIdentity             = "INVALID_IDENTITY"
	InvalidFilename             = "INVALID_FILENAME"
	MessageNotFound             = "MESSAGE_NOT_FOUND"
	InvalidState                = "INVALID_STATE"
	InvalidPriority             = "INVALID_PRIORITY"
	InvalidDuration             = "INVALID_DURATION"
	SyncFailed                  = "SYNC_FAILED"
	PeersConfigMissing          = "PEERS_CONFIG_MISSING"
	PeersConfigInvalid          = "PEERS_CONFIG_INVALID"
	EmptyBody                   = "EMPTY_BODY"
	MessageTooLarge             = "MESSAGE_TOO_LARGE"
	ArchiveConflict             = "ARCHIVE_CONFLICT"
	ResourceNotFound            = "RESOURCE_NOT_FOUND"
	InvalidResourceURL          = "INVALID_RESOURCE_URL"
	InvalidInterval             = "INVALID_INTERVAL"
	InvalidSince                = "INVALID_SINCE"
	WatchFlagConflict           = "WATCH_FLAG_CONFLICT"
	IdentityRequiredForSuppress = "IDENTITY_REQUIRED_FOR_SUPPRESS"
	NotHome                     = "NOT_HOME"
	Internal                    = "INTERNAL_ERROR"
)

// Error is a user-facing error: Message is printed verbatim after the
// invoked name. Code is empty for errors that have no stable code.
type Error struct {
	Code    string
	Message string
	Details map[string]any
}

func (e *Error) Error() string { return e.Message }

// New returns an error with a code and an exact message.
func New(code, msg string, details map[string]any) *Error {
	return &Error{Code: code, Message: msg, Details: details}
}

// Msg returns an uncoded user-facing error with an exact message.
func Msg(format string, args ...any) *Error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the code of err, or Internal when it has none.
func CodeOf(err error) string {
	var e *Error
	if errors.As(err, &e) && e.Code != "" {
		return e.Code
	}
	return Internal
}

// InvalidAgent is the error for a bad or reserved agent name.
func InvalidAgent(value string) *Error {
	return New(InvalidIdentity, "invalid agent name: "+value, map[string]any{"value": value})
}

// InvalidName is the error for a bad message, resource or decision filename.
func InvalidName(value string) *Error {
	return New(InvalidFilename, "invalid filename: "+value, map[string]any{"value": value})
}

// NotHosted is the error for an explicit agent whose folders are missing.
func NotHosted(id string) *Error {
	return New(IdentityNotHosted,
		"agent folder missing for "+id+" — create it: mkdir -p $ST_ROOT/"+id+"/{inbox,archive}",
		map[string]any{"identity": id})
}

// NotFound is the error for a message that is in neither inbox nor archive.
func NotFound(identity, filename string) *Error {
	return New(MessageNotFound, "not found in inbox or archive: "+filename,
		map[string]any{"identity": identity, "filename": filename})
}

// ErrIdentityRequired is returned when no agent is given and none is set.
var ErrIdentityRequired = New(IdentityRequired,
	"agent required — set $ST_AGENT (or the legacy $ST_IDENTITY) or pass --from <agent>", nil)
