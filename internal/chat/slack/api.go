package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// DefaultAPIBase is Slack's Web API.
const DefaultAPIBase = "https://slack.com/api"

// API calls the Web API method the interactions need: chat.update, how a
// shared message a button was pressed on shows its new public state. The
// bot token (chat:write) is the credential; Slack lets a bot update the
// messages it posted.
type API struct {
	// Base is DefaultAPIBase unless a test says otherwise.
	Base  string
	Token string
	HTTP  *http.Client
}

// Update replaces the message at ts in channel with m (chat.update).
// Slack answers 200 with {"ok":false,"error":...} for a refusal
// (cant_update_message, message_not_found, invalid_auth...).
func (a *API) Update(ctx context.Context, channel, ts string, m Message) error {
	if a == nil || a.Token == "" {
		return fmt.Errorf("slack: chat.update needs the bot token")
	}
	body, err := json.Marshal(map[string]any{"channel": channel, "ts": ts, "text": m.Text, "blocks": m.Blocks})
	if err != nil {
		return err
	}
	base := a.Base
	if base == "" {
		base = DefaultAPIBase
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(base, "/")+"/chat.update", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json; charset=utf-8")
	req.Header.Set("Authorization", "Bearer "+a.Token)
	c := a.HTTP
	if c == nil {
		c = &http.Client{Timeout: 5 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("slack: chat.update: %w", err)
	}
	defer resp.Body.Close()
	var out struct {
		OK    bool   `json:"ok"`
		Error string `json:"error"`
	}
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 || json.Unmarshal(data, &out) != nil || !out.OK {
		return fmt.Errorf("slack: chat.update answered %s %s", resp.Status, bytes.TrimSpace(data))
	}
	return nil
}
