package chat

import (
	"context"

	"croupier/internal/game"
)

// The governance context-menu commands, registered now so the platform
// shows them and their names are stable. Governance (proposals, requests
// for justice, judges) is being built separately: these placeholders
// answer that it is not available yet, and the governance area replaces
// them by registering commands of the same names (Register replaces a
// Placeholder).
func init() {
	for _, c := range []struct{ name, what string }{
		{"Submit as proposal", "Submitting a message as a proposal"},
		{"Submit as request for justice", "Submitting a message as a request for justice"},
		{"Stand for Judge", "Standing for Judge with a message"},
	} {
		Register(Command{Name: c.name, Kind: MessageMenu, NoGame: true, Placeholder: true, Private: true,
			Description: c.what + " (governance)",
			Handler:     notYet(c.what)})
	}
}

func notYet(what string) Handler {
	return func(context.Context, *game.Service, *Invocation) (*Reply, error) {
		return nil, refusef("not_available", "%s is not available yet: the Croupier does not run governance (proposals, requests for justice, elections) in this version. Nothing was recorded; post it as the rules say and an admin will handle it.", what)
	}
}
