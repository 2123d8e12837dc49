package announce

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// DefaultSlackAPI is Slack's Web API base URL.
const DefaultSlackAPI = "https://slack.com/api"

// Slack posts with the bot's token to chat.postMessage. A 429 is waited
// out (Retry-After) and retried, 5xx answers are retried with backoff, all
// bounded; an answer {"ok":false} is a permanent refusal (channel_not_found,
// not_in_channel, invalid_auth...). Slack has no nonce: a crash between
// Slack's answer and the delivery record can post twice on the retry.
type Slack struct {
	// BaseURL is DefaultSlackAPI unless a test or proxy says otherwise.
	BaseURL string
	Token   string
	HTTP    *http.Client
	// Attempts bounds the requests for one post (default 5).
	Attempts int
	// MaxWait is the longest single wait accepted (default 20 s).
	MaxWait time.Duration
	// Sleep waits (default: a timer honouring ctx); tests observe it.
	Sleep func(ctx context.Context, d time.Duration) error
}

var slackChannelRe = regexp.MustCompile(`^[A-Z0-9]{2,32}$`)

func (s *Slack) defaults() {
	if s.BaseURL == "" {
		s.BaseURL = DefaultSlackAPI
	}
	if s.HTTP == nil {
		s.HTTP = &http.Client{Timeout: 10 * time.Second}
	}
	if s.Attempts <= 0 {
		s.Attempts = 5
	}
	if s.MaxWait <= 0 {
		s.MaxWait = 20 * time.Second
	}
	if s.Sleep == nil {
		s.Sleep = sleep
	}
}

// slackMessage is the body of chat.postMessage. Mentions (<@U…>) notify in
// Slack whatever the message says; link_names stays off so plain @words
// notify no one.
type slackMessage struct {
	Channel string `json:"channel"`
	Text    string `json:"text"`
	Mrkdwn  bool   `json:"mrkdwn"`
}

// Post implements Poster.
func (s *Slack) Post(ctx context.Context, p Post) error {
	s.defaults()
	if !slackChannelRe.MatchString(p.Channel) {
		return &PermanentError{Body: fmt.Sprintf("%q is not a Slack channel id", p.Channel)}
	}
	body, err := json.Marshal(slackMessage{Channel: p.Channel, Text: p.Text, Mrkdwn: true})
	if err != nil {
		return err
	}
	endpoint := strings.TrimRight(s.BaseURL, "/") + "/chat.postMessage"
	backoff := 500 * time.Millisecond
	var last error
	for attempt := 1; attempt <= s.Attempts; attempt++ {
		wait, err := s.send(ctx, endpoint, body)
		if err == nil {
			return nil
		}
		if IsPermanent(err) || ctx.Err() != nil {
			return err
		}
		last = err
		if wait == 0 {
			wait, backoff = backoff, backoff*2
		}
		if attempt == s.Attempts {
			break
		}
		if wait > s.MaxWait {
			return fmt.Errorf("posting to Slack channel %s: %w; that is longer than %s, leaving it for a later delivery", p.Channel, last, s.MaxWait)
		}
		if err := s.Sleep(ctx, wait); err != nil {
			return err
		}
	}
	return fmt.Errorf("posting to Slack channel %s failed after %d attempts: %w", p.Channel, s.Attempts, last)
}

// send makes one request: nil when Slack created the message, else the
// error and, for a 429, how long Slack asks to wait.
func (s *Slack) send(ctx context.Context, endpoint string, body []byte) (time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, &PermanentError{Body: err.Error()}
	}
	req.Header.Set("Authorization", "Bearer "+s.Token)
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	resp, err := s.HTTP.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	rb, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		wait := time.Second
		if n, err := strconv.Atoi(strings.TrimSpace(resp.Header.Get("Retry-After"))); err == nil && n >= 0 {
			wait = time.Duration(n) * time.Second
		}
		return wait, fmt.Errorf("slack rate limit (429), asked to wait %s", wait)
	case resp.StatusCode >= 500:
		return 0, fmt.Errorf("slack answered HTTP %d", resp.StatusCode)
	case resp.StatusCode/100 != 2:
		return 0, &PermanentError{Status: resp.StatusCode, Body: strings.TrimSpace(string(rb))}
	}
	var ans struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(rb, &ans); err != nil {
		return 0, fmt.Errorf("slack answered something other than JSON: %w", err)
	}
	if !ans.OK {
		return 0, &PermanentError{Status: resp.StatusCode, Body: "slack: " + ans.Error}
	}
	return 0, nil
}
