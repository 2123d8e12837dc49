package announce

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultDiscordAPI is Discord's REST base URL (API v10).
const DefaultDiscordAPI = "https://discord.com/api/v10"

// Post is one chat message to send.
type Post struct {
	Channel string
	Text    string
	// Ping lists the identities the message may notify; every other
	// mention in Text shows as a name only (no @everyone, no roles).
	Ping []string
	// Nonce makes a repeat of the same post recognisable to the platform
	// (Discord's enforce_nonce): at most 25 characters.
	Nonce string
}

// Poster sends posts to a chat platform.
type Poster interface {
	Post(ctx context.Context, p Post) error
}

// PermanentError is a post the platform refused for a reason a retry
// cannot fix (unknown channel, missing permission, malformed message).
type PermanentError struct {
	Status int
	Body   string
}

func (e *PermanentError) Error() string {
	return fmt.Sprintf("the chat platform refused the message permanently (HTTP %d): %s", e.Status, e.Body)
}

// Discord posts with the bot's token to POST /channels/{id}/messages,
// honouring rate limits: a 429 is waited out (its JSON retry_after, else
// the Retry-After header) and retried, a bucket reported exhausted
// (X-RateLimit-Remaining: 0) is waited out before the next post to that
// channel, and 5xx answers are retried with backoff; all bounded.
type Discord struct {
	// BaseURL is DefaultDiscordAPI unless a test or proxy says otherwise.
	BaseURL string
	Token   string
	HTTP    *http.Client
	// Attempts bounds the requests for one post (default 5).
	Attempts int
	// MaxWait is the longest single wait accepted: a longer retry_after
	// fails the post (transiently) so the delivery is retried later rather
	// than holding the function until its timeout (default 20 s).
	MaxWait time.Duration
	// Sleep waits (default: a timer honouring ctx); tests observe it.
	Sleep func(ctx context.Context, d time.Duration) error
	// UserAgent is required by Discord in the form "DiscordBot (url, version)".
	UserAgent string

	mu      sync.Mutex
	resetAt map[string]time.Time // channel -> when its exhausted bucket refills
}

var snowflakeRe = regexp.MustCompile(`^[0-9]{1,20}$`)

func (d *Discord) defaults() {
	if d.BaseURL == "" {
		d.BaseURL = DefaultDiscordAPI
	}
	if d.HTTP == nil {
		d.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	if d.Attempts <= 0 {
		d.Attempts = 5
	}
	if d.MaxWait <= 0 {
		d.MaxWait = 20 * time.Second
	}
	if d.Sleep == nil {
		d.Sleep = sleep
	}
	if d.UserAgent == "" {
		d.UserAgent = "DiscordBot (https://github.com/croupier/croupier, 1)"
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// discordMessage is the body of Create Message.
type discordMessage struct {
	Content         string          `json:"content"`
	Nonce           string          `json:"nonce,omitempty"`
	EnforceNonce    bool            `json:"enforce_nonce,omitempty"`
	AllowedMentions allowedMentions `json:"allowed_mentions"`
}

type allowedMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users,omitempty"`
}

// Post implements Poster.
func (d *Discord) Post(ctx context.Context, p Post) error {
	d.defaults()
	if !snowflakeRe.MatchString(p.Channel) {
		return &PermanentError{Status: 0, Body: fmt.Sprintf("%q is not a Discord channel id", p.Channel)}
	}
	msg := discordMessage{Content: p.Text, Nonce: p.Nonce, EnforceNonce: p.Nonce != "", AllowedMentions: allowedMentions{Parse: []string{}}}
	for _, id := range p.Ping {
		if u, ok := strings.CutPrefix(id, "discord:"); ok && snowflakeRe.MatchString(u) {
			msg.AllowedMentions.Users = append(msg.AllowedMentions.Users, u)
		}
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	endpoint := strings.TrimRight(d.BaseURL, "/") + "/channels/" + url.PathEscape(p.Channel) + "/messages"
	backoff := 500 * time.Millisecond
	var last error
	for attempt := 1; attempt <= d.Attempts; attempt++ {
		if err := d.waitBucket(ctx, p.Channel); err != nil {
			return err
		}
		status, wait, err := d.send(ctx, endpoint, p.Channel, body)
		switch {
		case err == nil && status/100 == 2:
			return nil
		case err != nil:
			last = err // network: retry with backoff
			wait = backoff
			backoff *= 2
		case status == http.StatusTooManyRequests:
			last = fmt.Errorf("discord rate limit (429), asked to wait %s", wait)
		case status >= 500:
			last = fmt.Errorf("discord answered HTTP %d", status)
			wait = backoff
			backoff *= 2
		}
		if attempt == d.Attempts {
			break
		}
		if wait > d.MaxWait {
			return fmt.Errorf("posting to channel %s: %w; that is longer than %s, leaving it for a later delivery", p.Channel, last, d.MaxWait)
		}
		if err := d.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	return fmt.Errorf("posting to channel %s failed after %d attempts: %w", p.Channel, d.Attempts, last)
}

// send makes one request. It returns the status and, for a 429, how long
// Discord asks to wait; a permanent refusal is returned as *PermanentError.
func (d *Discord) send(ctx context.Context, endpoint, channel string, body []byte) (int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, 0, &PermanentError{Body: err.Error()}
	}
	req.Header.Set("Authorization", "Bot "+d.Token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", d.UserAgent)
	resp, err := d.HTTP.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return 0, 0, ctx.Err()
		}
		return 0, 0, err
	}
	defer resp.Body.Close()
	rb, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	d.noteBucket(channel, resp.Header)
	switch {
	case resp.StatusCode/100 == 2:
		return resp.StatusCode, 0, nil
	case resp.StatusCode == http.StatusTooManyRequests:
		return resp.StatusCode, retryAfter(resp.Header, rb), nil
	case resp.StatusCode >= 500:
		return resp.StatusCode, 0, nil
	default:
		return resp.StatusCode, 0, &PermanentError{Status: resp.StatusCode, Body: strings.TrimSpace(string(rb))}
	}
}

// retryAfter reads how long a 429 asks to wait: the body's retry_after
// (seconds, fractional), else the Retry-After header (seconds), else 1 s.
func retryAfter(h http.Header, body []byte) time.Duration {
	var b struct {
		RetryAfter *float64 `json:"retry_after"`
	}
	if json.Unmarshal(body, &b) == nil && b.RetryAfter != nil && *b.RetryAfter >= 0 {
		return time.Duration(*b.RetryAfter * float64(time.Second))
	}
	if s, err := strconv.ParseFloat(strings.TrimSpace(h.Get("Retry-After")), 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second))
	}
	return time.Second
}

// noteBucket remembers an exhausted rate-limit bucket, so the next post to
// the channel waits instead of earning a 429.
func (d *Discord) noteBucket(channel string, h http.Header) {
	if h.Get("X-RateLimit-Remaining") != "0" {
		return
	}
	s, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
	if err != nil || s <= 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.resetAt == nil {
		d.resetAt = map[string]time.Time{}
	}
	d.resetAt[channel] = time.Now().Add(time.Duration(s * float64(time.Second)))
}

func (d *Discord) waitBucket(ctx context.Context, channel string) error {
	d.mu.Lock()
	at, ok := d.resetAt[channel]
	delete(d.resetAt, channel)
	d.mu.Unlock()
	if !ok {
		return nil
	}
	if w := time.Until(at); w > 0 {
		return d.Sleep(ctx, min(w, d.MaxWait))
	}
	return nil
}

// LogPoster writes posts to a logger instead of a chat: what `croupier
// serve` does when no bot token is configured.
type LogPoster struct{ Log *slog.Logger }

// Post implements Poster.
func (l LogPoster) Post(ctx context.Context, p Post) error {
	l.Log.InfoContext(ctx, "announcement (no bot token configured for the platform)", "channel", p.Channel, "text", p.Text)
	return nil
}

// IsPermanent reports whether err is a refusal no retry can fix.
func IsPermanent(err error) bool {
	var pe *PermanentError
	return errors.As(err, &pe)
}
