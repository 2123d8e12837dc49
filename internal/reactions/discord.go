package reactions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultDiscordBase is Discord's REST API root (API version 10).
const DefaultDiscordBase = "https://discord.com/api/v10"

// Discord reads reactions from Discord's REST API with a bot token, at the
// moment it is asked (the deadline): an HTTP-only bot never receives
// reaction events. For a message it makes
//
//	GET /channels/{channel}/messages/{message}
//	GET /channels/{channel}/messages/{message}/reactions/{emoji}?limit=100&after={last user id}
//
// for 👍 and 👎 (skipping an emoji the message does not carry), paging until
// a page holds fewer than 100 users. A message Discord reports as unknown
// (404 with code 10008 Unknown Message, or 10003 Unknown Channel) is
// deleted; a non-null edited_timestamp means edited. Users become platform
// identities "discord:<user id>". A 429 is retried after the retry_after
// the body gives (or the Retry-After header), at most MaxRetries times.
//
// A late reader sees the reactions as they are when it runs, not as they
// were at the deadline: Discord keeps no history. Run tallies on time.
type Discord struct {
	// Token is the bot token, sent as "Authorization: Bot <token>".
	Token string
	// BaseURL is the API root; DefaultDiscordBase when empty.
	BaseURL string
	// Client makes the requests; http.DefaultClient when nil.
	Client *http.Client
	// MaxRetries bounds the retries of one request after 429s (default 5).
	MaxRetries int
	// MaxWait bounds one rate-limit wait; a longer retry_after is an error
	// (default 60 s), so a tally never hangs for a global limit of hours.
	MaxWait time.Duration
	// UserAgent identifies the bot, as Discord requires.
	UserAgent string
}

// Discord error codes the reader interprets (JSON "code" of an error body).
const (
	discordUnknownChannel = 10003
	discordUnknownMessage = 10008
	discordUnknownEmoji   = 10014
)

// ErrUnauthorized: Discord refused the bot token (401).
var ErrUnauthorized = errors.New("discord: the bot token was refused (401 Unauthorized); check the configured token")

// ErrForbidden: the bot may not read the channel or message (403).
var ErrForbidden = errors.New("discord: the bot lacks access to the channel (403 Forbidden); give it View Channel and Read Message History")

// HTTPError is a Discord answer the reader cannot use.
type HTTPError struct {
	Method, Path string
	Status       int
	Code         int    // Discord's JSON error code, 0 if none
	Message      string // Discord's JSON error message, or the raw body
}

func (e *HTTPError) Error() string {
	return fmt.Sprintf("discord: %s %s: HTTP %d (code %d): %s", e.Method, e.Path, e.Status, e.Code, e.Message)
}

// Unwrap lets errors.Is(err, ErrUnauthorized) and ErrForbidden match.
func (e *HTTPError) Unwrap() error {
	switch e.Status {
	case http.StatusUnauthorized:
		return ErrUnauthorized
	case http.StatusForbidden:
		return ErrForbidden
	}
	return nil
}

type discordMessage struct {
	ID              string  `json:"id"`
	EditedTimestamp *string `json:"edited_timestamp"`
	Reactions       []struct {
		Count int `json:"count"`
		Emoji struct {
			ID   *string `json:"id"`
			Name string  `json:"name"`
		} `json:"emoji"`
	} `json:"reactions"`
}

type discordUser struct {
	ID string `json:"id"`
}

// PageSize is the most users Discord returns per reactions request.
const PageSize = 100

// Platform is "discord": the reader answers only for Discord messages.
func (d *Discord) Platform() string { return "discord" }

// Reactions reads a Discord message's 👍 and 👎 users and its state.
func (d *Discord) Reactions(ctx context.Context, m MessageRef) (Snapshot, error) {
	if err := Check(m); err != nil {
		return Snapshot{}, err
	}
	if m.Platform != "discord" {
		return Snapshot{}, fmt.Errorf("discord: cannot read reactions of a %q message", m.Platform)
	}
	if d.Token == "" {
		return Snapshot{}, errors.New("discord: no bot token configured")
	}
	base := "/channels/" + url.PathEscape(m.Channel) + "/messages/" + url.PathEscape(m.Message)
	var msg discordMessage
	err := d.get(ctx, base, &msg)
	var he *HTTPError
	if errors.As(err, &he) && he.Status == http.StatusNotFound && (he.Code == discordUnknownMessage || he.Code == discordUnknownChannel) {
		return Snapshot{Up: []string{}, Down: []string{}, Deleted: true}, nil
	}
	if err != nil {
		return Snapshot{}, err
	}
	s := Snapshot{Edited: msg.EditedTimestamp != nil}
	for _, e := range []struct {
		emoji string
		into  *[]string
	}{{Up, &s.Up}, {Down, &s.Down}} {
		if !msg.has(e.emoji) {
			*e.into = []string{}
			continue
		}
		users, err := d.users(ctx, base, e.emoji)
		if err != nil {
			return Snapshot{}, err
		}
		*e.into = set(users)
	}
	return s, nil
}

// has reports whether the message may carry a reaction with the unicode
// emoji: it lists it, or it has no reactions field at all (then only the
// reactions route can tell).
func (msg discordMessage) has(emoji string) bool {
	if msg.Reactions == nil {
		return true
	}
	for _, r := range msg.Reactions {
		if r.Emoji.ID == nil && r.Emoji.Name == emoji && r.Count > 0 {
			return true
		}
	}
	return false
}

// users pages through the users behind one emoji.
func (d *Discord) users(ctx context.Context, base, emoji string) ([]string, error) {
	var out []string
	after := ""
	for page := 0; page < 10000; page++ {
		q := url.Values{"limit": {strconv.Itoa(PageSize)}}
		if after != "" {
			q.Set("after", after)
		}
		var us []discordUser
		err := d.get(ctx, base+"/reactions/"+url.PathEscape(emoji)+"?"+q.Encode(), &us)
		var he *HTTPError
		if errors.As(err, &he) && he.Status == http.StatusNotFound && he.Code == discordUnknownEmoji {
			return out, nil // nobody reacted with it
		}
		if err != nil {
			return nil, err
		}
		for _, u := range us {
			if u.ID != "" {
				out = append(out, "discord:"+u.ID)
			}
		}
		if len(us) < PageSize {
			return out, nil
		}
		last := us[len(us)-1].ID
		if last == "" || last == after {
			return nil, fmt.Errorf("discord: reactions paging for %s did not advance (after=%q)", emoji, after)
		}
		after = last
	}
	return nil, fmt.Errorf("discord: too many pages of %s reactions", emoji)
}

// get performs one GET, retrying after rate limits, and decodes the JSON.
func (d *Discord) get(ctx context.Context, path string, into any) error {
	base := d.BaseURL
	if base == "" {
		base = DefaultDiscordBase
	}
	client := d.Client
	if client == nil {
		client = http.DefaultClient
	}
	retries, maxWait := d.MaxRetries, d.MaxWait
	if retries <= 0 {
		retries = 5
	}
	if maxWait <= 0 {
		maxWait = time.Minute
	}
	ua := d.UserAgent
	if ua == "" {
		ua = "DiscordBot (https://github.com/croupier, 1)"
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(base, "/")+path, nil)
		if err != nil {
			return fmt.Errorf("discord: %w", err)
		}
		req.Header.Set("Authorization", "Bot "+d.Token)
		req.Header.Set("User-Agent", ua)
		resp, err := client.Do(req)
		if err != nil {
			return fmt.Errorf("discord: GET %s: %w", path, err)
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
		resp.Body.Close()
		if err != nil {
			return fmt.Errorf("discord: GET %s: reading the answer: %w", path, err)
		}
		switch {
		case resp.StatusCode == http.StatusOK:
			if err := json.Unmarshal(body, into); err != nil {
				return fmt.Errorf("discord: GET %s: decoding the answer: %w", path, err)
			}
			return nil
		case resp.StatusCode == http.StatusTooManyRequests:
			wait := retryAfter(resp.Header, body)
			if attempt >= retries {
				return fmt.Errorf("discord: GET %s: still rate limited after %d retries", path, retries)
			}
			if wait > maxWait {
				return fmt.Errorf("discord: GET %s: rate limited for %s, longer than the %s this reader waits", path, wait, maxWait)
			}
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return ctx.Err()
			case <-t.C:
			}
		default:
			he := &HTTPError{Method: http.MethodGet, Path: path, Status: resp.StatusCode}
			var e struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			}
			if json.Unmarshal(body, &e) == nil && e.Message != "" {
				he.Code, he.Message = e.Code, e.Message
			} else {
				he.Message = strings.TrimSpace(string(body[:min(len(body), 200)]))
			}
			return he
		}
	}
}

// retryAfter reads how long a 429 asks to wait: the body's retry_after
// (seconds, possibly fractional), else the Retry-After header (seconds),
// else one second.
func retryAfter(h http.Header, body []byte) time.Duration {
	var rl struct {
		RetryAfter *float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &rl) == nil && rl.RetryAfter != nil && *rl.RetryAfter >= 0 {
		return time.Duration(*rl.RetryAfter * float64(time.Second))
	}
	if v, err := strconv.ParseFloat(strings.TrimSpace(h.Get("Retry-After")), 64); err == nil && v >= 0 {
		return time.Duration(v * float64(time.Second))
	}
	return time.Second
}
