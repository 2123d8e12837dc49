// Package rules holds what every rule package shares: the typed rule error.
// The rules themselves live in sub-packages by subject (calendar, players,
// cards, exoptosis, economy, governance), as pure functions: state + command +
// random source in, new state + events or a *Error out. No I/O, no clock.
package rules

import "fmt"

// Error is a refusal by the rules: a stable machine Code (used by the API as
// the problem+json `code` and by chat integrations to pick a message) and a
// Message a player understands. Rule errors are final: the engine never
// retries them.
type Error struct {
	Code    string
	Message string
	// Fields carries machine-readable details (e.g. "possible_at").
	Fields map[string]any
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Is matches another *Error with the same Code, so callers can write
// errors.Is(err, &rules.Error{Code: "rejoin_too_soon"}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Refuse builds a rule error with a formatted message.
func Refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// With returns e with one more detail field.
func (e *Error) With(key string, value any) *Error {
	if e.Fields == nil {
		e.Fields = map[string]any{}
	}
	e.Fields[key] = value
	return e
}
