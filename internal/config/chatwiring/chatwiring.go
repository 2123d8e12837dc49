// Package chatwiring builds the chat command router the chat functions
// (Discord, Slack and the bridge) run. It is apart from internal/config so
// that a function that runs no chat (the tracker, the JSON API, the
// scheduled ones) links none of the chat package's tables (their package
// variables keep every command's code in the bootstrap).
package chatwiring

import (
	"log/slog"

	"croupier/internal/chat"
	"croupier/internal/config"
	"croupier/internal/game"
)

// Router builds the chat router, with card pictures when PUBLIC_URL
// (config.EnvPublicURL) is set.
func Router(svc *game.Service, getenv func(string) string, log *slog.Logger) *chat.Router {
	r := chat.NewRouter(svc, log)
	r.CardImage = chat.CardImageURL(getenv(config.EnvPublicURL))
	return r
}
