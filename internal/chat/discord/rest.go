package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultAPIBase is Discord's REST API, version 10.
const DefaultAPIBase = "https://discord.com/api/v10"

// Client calls the few REST routes Croupier's interactions need: listing
// and overwriting application commands (bot token), editing a shared
// message a button was pressed on (bot token), and editing an
// interaction's original response (the interaction token is the
// credential). Tests point Base at a loopback server.
type Client struct {
	Base string
	// Token is the bot token (the command routes and message edits need it).
	Token string
	HTTP  *http.Client
	// MaxRetries bounds retries after a 429 (default 3); each waits
	// Discord's retry_after, capped at MaxWait.
	MaxRetries int
	MaxWait    time.Duration
}

// APIError is a non-2xx answer from Discord.
type APIError struct {
	Method, Path string
	Status       int
	Body         string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("discord: %s %s: %d %s", e.Method, e.Path, e.Status, clip(e.Body, 300))
}

func (c *Client) base() string {
	if c.Base == "" {
		return DefaultAPIBase
	}
	return strings.TrimRight(c.Base, "/")
}

func (c *Client) do(ctx context.Context, method, path string, auth bool, in, out any) error {
	var body []byte
	if in != nil {
		var err error
		if body, err = json.Marshal(in); err != nil {
			return fmt.Errorf("discord: encoding %s %s: %w", method, path, err)
		}
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	retries, maxWait := c.MaxRetries, c.MaxWait
	if retries <= 0 {
		retries = 3
	}
	if maxWait <= 0 {
		maxWait = 10 * time.Second
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, c.base()+path, bytes.NewReader(body))
		if err != nil {
			return fmt.Errorf("discord: %s %s: %w", method, path, err)
		}
		req.Header.Set("User-Agent", "DiscordBot (https://github.com/croupier, 1.0)")
		if in != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if auth {
			if c.Token == "" {
				return fmt.Errorf("discord: %s %s needs the bot token", method, path)
			}
			req.Header.Set("Authorization", "Bot "+c.Token)
		}
		resp, err := hc.Do(req)
		if err != nil {
			return fmt.Errorf("discord: %s %s: %w", method, path, err)
		}
		data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("discord: reading %s %s: %w", method, path, err)
		}
		if resp.StatusCode == http.StatusTooManyRequests && attempt < retries {
			wait := retryAfter(resp.Header, data)
			if wait > maxWait {
				wait = maxWait
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(wait):
			}
			continue
		}
		if resp.StatusCode < 200 || resp.StatusCode > 299 {
			return &APIError{Method: method, Path: path, Status: resp.StatusCode, Body: string(data)}
		}
		if out != nil && len(bytes.TrimSpace(data)) > 0 {
			if err := json.Unmarshal(data, out); err != nil {
				return fmt.Errorf("discord: decoding %s %s: %w", method, path, err)
			}
		}
		return nil
	}
}

// retryAfter reads a 429's wait: the JSON retry_after (seconds, fractional)
// or the Retry-After header.
func retryAfter(h http.Header, body []byte) time.Duration {
	var b struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &b) == nil && b.RetryAfter > 0 {
		return time.Duration(b.RetryAfter * float64(time.Second))
	}
	if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return time.Second
}

func commandsPath(appID, guild string) string {
	if guild != "" {
		return "/applications/" + url.PathEscape(appID) + "/guilds/" + url.PathEscape(guild) + "/commands"
	}
	return "/applications/" + url.PathEscape(appID) + "/commands"
}

// Commands lists the application's registered commands (global, or of one
// guild).
func (c *Client) Commands(ctx context.Context, appID, guild string) ([]AppCommand, error) {
	var out []AppCommand
	err := c.do(ctx, http.MethodGet, commandsPath(appID, guild), true, nil, &out)
	return out, err
}

// OverwriteCommands replaces the application's commands (bulk overwrite).
func (c *Client) OverwriteCommands(ctx context.Context, appID, guild string, cmds []AppCommand) error {
	return c.do(ctx, http.MethodPut, commandsPath(appID, guild), true, cmds, nil)
}

// EditOriginal edits an interaction's original response (how a deferred
// reply is finished).
func (c *Client) EditOriginal(ctx context.Context, appID, token string, msg *ResponseData) error {
	// Flags cannot change on an edit; the deferral set them.
	m := *msg
	m.Flags = 0
	return c.do(ctx, http.MethodPatch, "/webhooks/"+url.PathEscape(appID)+"/"+url.PathEscape(token)+"/messages/@original", false, &m, nil)
}

// EditMessage edits a message of the bot's in a channel (Edit Message,
// PATCH /channels/{channel.id}/messages/{message.id}): how a shared
// message a button was pressed on shows its new public state. The bot
// token is the credential: the interaction's token only reaches the
// messages of that interaction, and the shared message is another's.
func (c *Client) EditMessage(ctx context.Context, channel, message string, msg *ResponseData) error {
	m := *msg
	m.Flags = 0 // a channel message's flags are not the reply's to change
	return c.do(ctx, http.MethodPatch, "/channels/"+url.PathEscape(channel)+"/messages/"+url.PathEscape(message), true, &m, nil)
}
