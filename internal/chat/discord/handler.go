package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"croupier/internal/chat"
	"croupier/internal/clock"
)

// Limits of the interactions endpoint.
const (
	// MaxBody is the largest interaction body accepted (Discord's are a
	// few KB; a message command carries at most a 4000-character message).
	MaxBody = 64 << 10
	// DefaultWindow is how far a request's timestamp may be from now, either
	// way, before it is refused as a replay or a forgery.
	DefaultWindow = 5 * time.Minute
	// DefaultBudget is how long the handler waits for a command before it
	// defers: Discord closes the interaction after 3 seconds.
	DefaultBudget = 2 * time.Second
)

// Handler serves POST /discord/interactions.
type Handler struct {
	Router *chat.Router
	// PublicKey is the application's public key (DISCORD_PUBLIC_KEY).
	PublicKey ed25519.PublicKey
	// ApplicationID, when set, refuses interactions of another application.
	ApplicationID string
	// Cache makes replayed reads, prompts and refusals answer their first
	// response; nil disables it. Game commands need none: they replay from
	// their log entry (chat.ReplyCache).
	Cache *chat.ReplyCache
	// Deferrer finishes commands that outlive Budget; nil runs them in a
	// goroutine of this process (right for a long-lived server, not for
	// Lambda, which freezes after the response).
	Deferrer Deferrer
	// API edits deferred responses (no token needed) and, with the bot
	// token, the shared messages buttons are pressed on (shareState).
	API    *Client
	Clock  clock.Clock
	Budget time.Duration
	// Window bounds the timestamp's distance from now (DefaultWindow).
	Window time.Duration
	Log    *slog.Logger
}

// ParsePublicKey reads a hex public key as the Discord developer portal
// shows it.
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("discord: the public key must be %d bytes in hex (the developer portal's \"Public Key\")", ed25519.PublicKeySize)
	}
	return ed25519.PublicKey(b), nil
}

// Verify checks Discord's signature: Ed25519 over the timestamp header
// followed by the raw body, and the timestamp within window of now.
func Verify(pub ed25519.PublicKey, sigHex, timestamp string, body []byte, now time.Time, window time.Duration) error {
	if len(pub) != ed25519.PublicKeySize {
		return errors.New("no public key is configured")
	}
	if sigHex == "" || timestamp == "" {
		return errors.New("the signature headers are missing")
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return errors.New("the signature is not 64 bytes of hex")
	}
	msg := make([]byte, 0, len(timestamp)+len(body))
	msg = append(append(msg, timestamp...), body...)
	if !ed25519.Verify(pub, msg, sig) {
		return errors.New("the signature does not match")
	}
	secs, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return errors.New("the timestamp is not a Unix time")
	}
	if d := now.Sub(time.Unix(secs, 0)); d > window || d < -window {
		return fmt.Errorf("the timestamp is %s away from now", d.Round(time.Second))
	}
	return nil
}

func (h *Handler) log() *slog.Logger {
	if h.Log == nil {
		return slog.Default()
	}
	return h.Log
}

func (h *Handler) now() time.Time {
	if h.Clock == nil {
		return time.Now()
	}
	return h.Clock.Now()
}

// ServeHTTP implements the interactions endpoint.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		fail(w, http.StatusMethodNotAllowed, "method_not_allowed", "Discord interactions are POSTed.")
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			fail(w, http.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("An interaction body is at most %d bytes.", MaxBody))
			return
		}
		fail(w, http.StatusBadRequest, "invalid_request", "The body could not be read.")
		return
	}
	window := h.Window
	if window <= 0 {
		window = DefaultWindow
	}
	if err := Verify(h.PublicKey, r.Header.Get("X-Signature-Ed25519"), r.Header.Get("X-Signature-Timestamp"), body, h.now(), window); err != nil {
		h.log().InfoContext(r.Context(), "discord request refused", "reason", err.Error())
		fail(w, http.StatusUnauthorized, "invalid_signature", "The request signature is invalid: "+err.Error()+".")
		return
	}
	var in Interaction
	if err := json.Unmarshal(body, &in); err != nil {
		fail(w, http.StatusBadRequest, "invalid_json", "The interaction is not valid JSON.")
		return
	}
	resp, err := h.respond(r.Context(), &in, body)
	if err != nil {
		fail(w, http.StatusBadRequest, "invalid_interaction", "The interaction could not be read: "+err.Error()+".")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(resp)
}

// respond computes the response body to a verified interaction.
func (h *Handler) respond(ctx context.Context, in *Interaction, body []byte) ([]byte, error) {
	if h.ApplicationID != "" && in.ApplicationID != h.ApplicationID {
		return nil, fmt.Errorf("the interaction is for application %q, not this one", in.ApplicationID)
	}
	switch in.Type {
	case InteractionPing:
		return json.Marshal(Response{Type: ResponsePong})
	case InteractionAutocomplete:
		inv, focused, partial, err := invocation(in)
		if err != nil {
			return nil, err
		}
		cs := h.Router.Complete(ctx, inv, focused, partial)
		return json.Marshal(Response{Type: ResponseAutocompleteResult, Data: &ResponseData{Choices: choices(cs, focusedType(in))}})
	case InteractionCommand, InteractionComponent:
	case InteractionModalSubmit:
		return marshalMessage(ResponseMessage, &chat.Reply{Text: "Forms are not used by the Croupier.", Ephemeral: true, Refusal: true}, h.log())
	default:
		return nil, fmt.Errorf("unknown interaction type %d", in.Type)
	}

	inv, _, _, err := invocation(in)
	if err != nil {
		return nil, err
	}
	resp, logged := h.run(ctx, in, inv, body)
	// The interaction id comes signed by Discord, so no one else can send
	// it; the owner makes sure of it anyway: another user's id (a bug)
	// answers this user's own resp, never the first one's.
	first, err := h.Cache.Keep(ctx, Platform, in.ID, chat.Owner(Platform, inv.User), logged, resp)
	if err != nil {
		h.log().WarnContext(ctx, "reply cache unavailable", "err", err.Error())
		return resp, nil
	}
	return first, nil
}

// answer is a rendered response and whether a game command's log entry
// holds its outcome (chat.Reply.Logged).
type answer struct {
	resp   []byte
	logged bool
}

// run answers with the command's reply if it comes within the budget, and
// otherwise defers: Discord shows "thinking…" and the Deferrer finishes the
// command and edits the response. logged is the reply's chat.Reply.Logged
// (false for a deferral).
func (h *Handler) run(ctx context.Context, in *Interaction, inv *chat.Invocation, body []byte) (resp []byte, logged bool) {
	budget := h.Budget
	if budget <= 0 {
		budget = DefaultBudget
	}
	done := make(chan answer, 1)
	// The command is not cancelled when the request ends: once deferred it
	// may still commit, and its twin in the Deferrer then replays it.
	cctx := context.WithoutCancel(ctx)
	go func() { done <- h.reply(cctx, in, inv) }()
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case a := <-done:
		return a.resp, a.logged
	case <-timer.C:
	}
	d := h.Deferrer
	if d == nil {
		d = GoDeferrer{Finish: h.Finish, Log: h.log()}
	}
	if err := d.Defer(ctx, body); err != nil {
		// Without a deferral the best answer is to wait for the command.
		h.log().ErrorContext(ctx, "deferring failed; waiting for the command", "err", err.Error())
		a := <-done
		return a.resp, a.logged
	}
	h.log().InfoContext(ctx, "discord command deferred", "command", inv.Command, "interaction", in.ID)
	if in.Type == InteractionComponent && !inv.OnShared() {
		// A message private to the presser: Finish replaces it.
		resp, _ := json.Marshal(Response{Type: ResponseDeferredUpdate})
		return resp, false
	}
	var flags int
	if c, ok := h.Router.Lookup(inv.Command); ok && c.Private || inv.OnShared() {
		// A press on a shared message: the presser's "thinking…" and then
		// their answer are theirs alone; Finish edits the shared message.
		flags = FlagEphemeral
	}
	resp, _ = json.Marshal(Response{Type: ResponseDeferredMessage, Data: &ResponseData{Flags: flags}})
	return resp, false
}

// reply runs the invocation and renders its reply as a response: a new
// message for a command; for a button or select on a message private to
// the presser, an update of that message unless the reply is a refusal.
// A press on a shared message (chat.Invocation.OnShared) is answered with
// an ephemeral message. Either way the shared message the press changed
// (chat.Invocation.SharedMessage) is edited with its public state
// (shareState).
func (h *Handler) reply(ctx context.Context, in *Interaction, inv *chat.Invocation) answer {
	rep := h.Router.Handle(ctx, inv)
	typ := ResponseMessage
	if in.Type == InteractionComponent && !rep.Refusal {
		if !inv.OnShared() {
			typ = ResponseUpdateMessage
		}
		h.shareState(ctx, inv, rep)
	}
	resp, _ := marshalMessage(typ, rep, h.log())
	return answer{resp: resp, logged: rep.Logged}
}

// shareState edits the shared message a press acted on with its new
// public state (chat.Reply.Shared), never with the presser's reply, and
// never after a refusal.
//
// It edits through Edit Message with the bot token, before the
// interaction is answered, rather than answering UPDATE_MESSAGE with the
// public state and sending the private reply as a follow-up webhook:
// a follow-up can only be sent once the response has been returned, and
// the Lambda freezes as soon as it returns, so the follow-up would need a
// second invocation for every press. Editing first keeps each press one
// invocation; the edit is one REST call within the handler's budget (a
// slow one defers like any slow command). A failed edit is logged: the
// presser still gets their answer, and the next press shows the state.
func (h *Handler) shareState(ctx context.Context, inv *chat.Invocation, rep *chat.Reply) {
	m := inv.SharedMessage()
	if rep.Refusal || rep.Shared == nil || m == nil {
		return
	}
	if h.API == nil || h.API.Token == "" {
		h.log().WarnContext(ctx, "a shared message keeps its earlier state: no bot token to edit it with", "command", inv.Command, "message", m.ID)
		return
	}
	if err := h.API.EditMessage(ctx, m.Channel, m.ID, message(rep.Shared, h.log())); err != nil {
		h.log().WarnContext(ctx, "editing a shared message failed", "command", inv.Command, "message", m.ID, "err", err.Error())
	}
}

func marshalMessage(typ int, rep *chat.Reply, log *slog.Logger) ([]byte, error) {
	d := message(rep, log)
	if typ == ResponseUpdateMessage {
		d.Flags = 0 // an update keeps the message's flags
	}
	return json.Marshal(Response{Type: typ, Data: d})
}

// Finish runs a deferred interaction (the verified body the handler
// received) to the end and edits its original response with the reply.
// The game command replays by its idempotency key if the first attempt
// committed meanwhile, so running it twice changes nothing twice.
func (h *Handler) Finish(ctx context.Context, body []byte) error {
	var in Interaction
	if err := json.Unmarshal(body, &in); err != nil {
		return fmt.Errorf("discord: deferred interaction: %w", err)
	}
	inv, _, _, err := invocation(&in)
	if err != nil {
		return fmt.Errorf("discord: deferred interaction: %w", err)
	}
	if in.ApplicationID == "" || in.Token == "" {
		return errors.New("discord: deferred interaction has no application id or token to answer with")
	}
	rep := h.Router.Handle(ctx, inv)
	api := h.API
	if api == nil {
		api = &Client{}
	}
	// The original response is the presser's deferred ephemeral answer
	// after a press on a shared message (the shared message gets its
	// public state alone), and otherwise the command's reply or the
	// private message the press was on.
	if err := api.EditOriginal(ctx, in.ApplicationID, in.Token, message(rep, h.log())); err != nil {
		return err
	}
	h.shareState(ctx, inv, rep)
	h.log().InfoContext(ctx, "discord deferred reply sent", "command", inv.Command, "interaction", in.ID)
	return nil
}

// fail writes a problem+json error (Discord only looks at the status).
func fail(w http.ResponseWriter, status int, code, detail string) {
	b, _ := json.Marshal(map[string]any{"type": "https://croupier.dev/problems/" + code, "title": http.StatusText(status),
		"status": status, "detail": detail, "code": code})
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}
