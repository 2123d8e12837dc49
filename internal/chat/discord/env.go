package discord

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// The environment variables the Discord function reads (template.yaml sets
// the first three from parameters).
const (
	// EnvPublicKey is the application's public key (hex), from the
	// developer portal's General Information page. Required.
	EnvPublicKey = "DISCORD_PUBLIC_KEY"
	// EnvApplicationID is the application id; when set, interactions for
	// another application are refused.
	EnvApplicationID = "DISCORD_APPLICATION_ID"
	// EnvBotToken is the bot token, for REST calls that need it (reading
	// reactions, announcements). A secret: never logged.
	EnvBotToken = "DISCORD_BOT_TOKEN"
	// EnvAPIBase replaces Discord's REST base URL (tests: a loopback server).
	EnvAPIBase = "DISCORD_API_BASE"
	// EnvTimestampWindow widens the accepted timestamp distance (default
	// 5m). Only for replaying the signed sample events in events/discord,
	// whose timestamps are fixed: never set it in a deployment.
	EnvTimestampWindow = "DISCORD_TIMESTAMP_WINDOW"
)

// Env is the Discord configuration of a function.
type Env struct {
	PublicKey     ed25519.PublicKey
	ApplicationID string
	BotToken      string
	APIBase       string
	Window        time.Duration
}

var snowflakeRe = regexp.MustCompile(`^[0-9]{1,20}$`)

// FromEnv reads the Discord configuration through getenv, reporting every
// problem at once, each naming its variable.
func FromEnv(getenv func(string) string) (Env, error) {
	var e Env
	var errs []error
	pk := strings.TrimSpace(getenv(EnvPublicKey))
	if pk == "" {
		errs = append(errs, fmt.Errorf("%s is not set: copy the application's Public Key from the Discord developer portal", EnvPublicKey))
	} else if k, err := ParsePublicKey(pk); err != nil {
		errs = append(errs, fmt.Errorf("%s: %v", EnvPublicKey, err))
	} else {
		e.PublicKey = k
	}
	if id := strings.TrimSpace(getenv(EnvApplicationID)); id != "" {
		if !snowflakeRe.MatchString(id) {
			errs = append(errs, fmt.Errorf("%s=%q is not a Discord id (digits)", EnvApplicationID, id))
		}
		e.ApplicationID = id
	}
	e.BotToken = strings.TrimSpace(getenv(EnvBotToken))
	if b := strings.TrimSpace(getenv(EnvAPIBase)); b != "" {
		if u, err := url.Parse(b); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			errs = append(errs, fmt.Errorf("%s=%q is not an http(s) URL", EnvAPIBase, b))
		}
		e.APIBase = b
	}
	if w := strings.TrimSpace(getenv(EnvTimestampWindow)); w != "" {
		d, err := time.ParseDuration(w)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q is not a positive duration such as 5m", EnvTimestampWindow, w))
		}
		e.Window = d
	}
	if len(errs) > 0 {
		return Env{}, fmt.Errorf("discord config: %w", errors.Join(errs...))
	}
	return e, nil
}
