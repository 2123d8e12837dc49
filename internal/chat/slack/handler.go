package slack

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
	"strings"
	"time"

	"croupier/internal/chat"
	"croupier/internal/clock"
	"croupier/internal/rules"
)

// Handler serves Slack's requests:
//
//	POST /slack/commands      the slash command (form-encoded)
//	POST /slack/interactions  buttons and selects of earlier replies
//
// Each runs through the chat Router; trigger_id is the idempotency key, and
// the reply cache makes a replayed request get the first reply and change
// nothing.
type Handler struct {
	Router *chat.Router
	Cache  *chat.ReplyCache
	// Secret is the app's signing secret (never logged).
	Secret []byte
	Clock  clock.Clock
	Log    *slog.Logger
	// HTTP posts interaction replies to their response_url.
	HTTP *http.Client
	// ResponseURLPrefix is the only prefix a response_url may have (default
	// https://hooks.slack.com/): the URL comes in the request, and the
	// handler must not be made to post anywhere else.
	ResponseURLPrefix string
	// API updates the shared messages buttons are pressed on (chat.update
	// with the bot token); without a token they keep their earlier state.
	API *API
}

// Routes adds the Slack routes to m.
func (h *Handler) Routes(m *http.ServeMux) {
	m.HandleFunc("POST /slack/commands", h.commands)
	m.HandleFunc("POST /slack/interactions", h.interactions)
}

// ServeHTTP serves the Slack routes alone (a function with only them).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m := http.NewServeMux()
	h.Routes(m)
	m.ServeHTTP(w, r)
}

func (h *Handler) log() *slog.Logger {
	if h.Log == nil {
		return slog.Default()
	}
	return h.Log
}

// verified reads and verifies the body; on failure it has answered.
func (h *Handler) verified(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			problem(w, http.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("The request body is over %d bytes.", MaxBody))
			return nil, false
		}
		problem(w, http.StatusBadRequest, "invalid_request", "The request body could not be read.")
		return nil, false
	}
	if err := Verify(h.Secret, r.Header, body, h.Clock.Now()); err != nil {
		h.log().WarnContext(r.Context(), "slack request refused", "err", err.Error(), "remote", r.RemoteAddr)
		problem(w, http.StatusUnauthorized, "invalid_signature", "The request is not signed by Slack: "+strings.TrimPrefix(err.Error(), "slack: ")+".")
		return nil, false
	}
	return body, true
}

func (h *Handler) commands(w http.ResponseWriter, r *http.Request) {
	body, ok := h.verified(w, r)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	if err != nil {
		problem(w, http.StatusBadRequest, "invalid_request", "The slash command form could not be parsed.")
		return
	}
	trigger, user, team := form.Get("trigger_id"), form.Get("user_id"), form.Get("team_id")
	if trigger == "" || user == "" || team == "" {
		problem(w, http.StatusBadRequest, "invalid_request", "The slash command lacks trigger_id, user_id or team_id.")
		return
	}
	inv := &chat.Invocation{Platform: Platform, Guild: team, Channel: form.Get("channel_id"),
		User: chat.Identity(Platform, user), UserName: form.Get("user_name"), Key: trigger}
	h.respond(w, r.Context(), inv, func() *chat.Reply {
		name, opts, err := ParseWith(h.Router.Lookup, form.Get("text"))
		if err != nil {
			return chat.Refusal(rules.Refuse("invalid_option", "%s.", upper(err.Error())))
		}
		inv.Command, inv.Options = name, opts
		return nil
	})
}

// respond answers inv: the cached reply of its key if any, else it runs
// prep (which may refuse) and the router, renders, and remembers.
func (h *Handler) respond(w http.ResponseWriter, ctx context.Context, inv *chat.Invocation, prep func() *chat.Reply) {
	body, err := h.reply(ctx, inv, prep)
	if err != nil {
		h.log().ErrorContext(ctx, "slack reply failed", "err", err.Error())
		problem(w, http.StatusInternalServerError, "internal", "The Croupier could not answer; please try again.")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(body)
}

func (h *Handler) reply(ctx context.Context, inv *chat.Invocation, prep func() *chat.Reply) ([]byte, error) {
	b, _, err := h.run(ctx, inv, prep)
	return b, err
}

// run is reply, with the reply itself.
func (h *Handler) run(ctx context.Context, inv *chat.Invocation, prep func() *chat.Reply) ([]byte, *chat.Reply, error) {
	rep := prep()
	if rep == nil {
		rep = h.Router.Handle(ctx, inv)
	}
	b, err := json.Marshal(Render(rep))
	if err != nil {
		return nil, nil, err
	}
	// Slack signs the trigger id, so no one else can send it; the owner
	// makes sure of it anyway: another user's id (a bug) answers this
	// user's own reply, never the first one's.
	first, err := h.Cache.Keep(ctx, Platform, inv.Key, chat.Owner(Platform, inv.User), rep.Logged, b)
	if errors.Is(err, chat.ErrReused) {
		h.log().WarnContext(ctx, "slack interaction id reused by another user", "key", inv.Key)
		return b, rep, nil
	}
	return first, rep, err
}

// shareState updates the shared message a press acted on with its new
// public state (chat.Reply.Shared), never with the presser's reply, and
// never after a refusal: the presser's own answer went to them alone
// (response_type ephemeral, Router). A failed update is logged; the next
// press shows the state.
func (h *Handler) shareState(ctx context.Context, inv *chat.Invocation, rep *chat.Reply) {
	m := inv.SharedMessage()
	if rep == nil || rep.Refusal || rep.Shared == nil || m == nil {
		return
	}
	if h.API == nil || h.API.Token == "" {
		h.log().WarnContext(ctx, "a shared message keeps its earlier state: no bot token to update it with", "command", inv.Command)
		return
	}
	if err := h.API.Update(ctx, m.Channel, m.ID, Render(rep.Shared)); err != nil {
		h.log().WarnContext(ctx, "updating a shared message failed", "command", inv.Command, "err", err.Error())
	}
}

// interactionPayload is the part of a block_actions payload used.
type interactionPayload struct {
	Type string `json:"type"`
	User struct {
		ID       string `json:"id"`
		Username string `json:"username"`
		TeamID   string `json:"team_id"`
	} `json:"user"`
	Team    struct{ ID string } `json:"team"`
	Channel struct{ ID string } `json:"channel"`
	// TriggerID is unique per interaction: the idempotency key.
	TriggerID   string `json:"trigger_id"`
	ResponseURL string `json:"response_url"`
	// Container is the message the pressed element is on.
	Container struct {
		Type        string `json:"type"`
		MessageTS   string `json:"message_ts"`
		ChannelID   string `json:"channel_id"`
		IsEphemeral bool   `json:"is_ephemeral"`
	} `json:"container"`
	Actions []struct {
		ActionID       string `json:"action_id"`
		Value          string `json:"value"`
		SelectedOption *struct {
			Value string `json:"value"`
		} `json:"selected_option"`
		// SelectedOptions are a multi_static_select's choices.
		SelectedOptions []struct {
			Value string `json:"value"`
		} `json:"selected_options"`
	} `json:"actions"`
}

// interactions runs a pressed button or chosen select. Slack wants a bare
// 200 within 3 seconds; the reply goes to the interaction's response_url
// (a new ephemeral or channel message, as the reply says). A press on a
// shared message (chat.Invocation.OnShared) is answered ephemerally there,
// and the message itself is updated with its public state (shareState).
func (h *Handler) interactions(w http.ResponseWriter, r *http.Request) {
	body, ok := h.verified(w, r)
	if !ok {
		return
	}
	form, err := url.ParseQuery(string(body))
	var p interactionPayload
	if err != nil || json.Unmarshal([]byte(form.Get("payload")), &p) != nil {
		problem(w, http.StatusBadRequest, "invalid_request", "The interaction payload is not JSON in the payload field.")
		return
	}
	if p.Type != "block_actions" || len(p.Actions) == 0 {
		w.WriteHeader(http.StatusOK) // other interaction types: nothing to do
		return
	}
	team := p.Team.ID
	if team == "" {
		team = p.User.TeamID
	}
	if p.TriggerID == "" || p.User.ID == "" || team == "" {
		problem(w, http.StatusBadRequest, "invalid_request", "The interaction lacks trigger_id, user or team.")
		return
	}
	if !strings.HasPrefix(p.ResponseURL, h.responsePrefix()) {
		problem(w, http.StatusBadRequest, "invalid_request", "The interaction's response_url is not Slack's.")
		return
	}
	act := p.Actions[0]
	inv := &chat.Invocation{Platform: Platform, Guild: team, Channel: p.Channel.ID, User: chat.Identity(Platform, p.User.ID),
		UserName: p.User.Username, Key: p.TriggerID, Component: true}
	if c := p.Container; c.Type == "message" && c.MessageTS != "" {
		inv.Message = &chat.MessageRef{ID: c.MessageTS, Channel: c.ChannelID, Private: c.IsEphemeral}
		if inv.Message.Channel == "" {
			inv.Message.Channel = p.Channel.ID
		}
	}
	out, rep, err := h.run(r.Context(), inv, func() *chat.Reply {
		a, err := chat.DecodeAction(act.ActionID)
		if err != nil {
			return chat.Refusal(rules.Refuse("invalid_option", "This button belongs to another version of the Croupier; run the command again."))
		}
		if opt := a.Options[selectOption]; opt != "" {
			switch {
			case act.SelectedOption != nil:
				a.Options[opt] = act.SelectedOption.Value
			case len(act.SelectedOptions) > 0:
				// A multi-select's choices, joined as the
				// comma-separated option chat.Select promises.
				vs := make([]string, len(act.SelectedOptions))
				for i, o := range act.SelectedOptions {
					vs[i] = o.Value
				}
				a.Options[opt] = strings.Join(vs, ",")
			}
		}
		delete(a.Options, selectOption)
		inv.Command, inv.Options = a.Command, a.Options
		return nil
	})
	if err != nil {
		h.log().ErrorContext(r.Context(), "slack interaction failed", "err", err.Error())
		problem(w, http.StatusInternalServerError, "internal", "The Croupier could not answer; please try again.")
		return
	}
	if inv.Message != nil && inv.Message.Private && rep != nil && !rep.Refusal {
		// A message private to the presser (an ephemeral prompt) is
		// replaced by its answer; Slack updates an ephemeral message only
		// through its response_url.
		var m Message
		if json.Unmarshal(out, &m) == nil {
			m.ReplaceOriginal = true
			if b, err := json.Marshal(m); err == nil {
				out = b
			}
		}
	}
	if err := h.post(r.Context(), p.ResponseURL, out); err != nil {
		h.log().WarnContext(r.Context(), "posting to response_url failed", "err", err.Error())
	}
	h.shareState(r.Context(), inv, rep)
	w.WriteHeader(http.StatusOK)
}

func (h *Handler) responsePrefix() string {
	if h.ResponseURLPrefix != "" {
		return h.ResponseURLPrefix
	}
	return "https://hooks.slack.com/"
}

func (h *Handler) post(ctx context.Context, u string, body []byte) error {
	c := h.HTTP
	if c == nil {
		c = &http.Client{Timeout: 5 * time.Second}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, u, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("response_url answered %s", resp.Status)
	}
	return nil
}

// problem writes an RFC 9457 problem (what Slack shows for non-200 is
// generic; the body is for people debugging the app).
func problem(w http.ResponseWriter, status int, code, detail string) {
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"type": "about:blank", "title": http.StatusText(status), "status": status, "code": code, "detail": detail})
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
