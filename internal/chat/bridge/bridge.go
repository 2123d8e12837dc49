package bridge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"

	"croupier/internal/chat"
	"croupier/internal/clock"
	"croupier/internal/credential"
	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/governance"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/obelisk"
)

// Handler serves the bridge routes.
type Handler struct {
	Router *chat.Router
	Game   *game.Service
	Cache  *chat.ReplyCache
	// Secrets are the accepted signing secrets (never logged), each with
	// the identities and games it may act for.
	Secrets []credential.Secret
	Clock   clock.Clock
	Log     *slog.Logger
}

// Routes adds the bridge routes to m.
func (h *Handler) Routes(m *http.ServeMux) {
	m.HandleFunc("POST /bridge/v1/commands", h.commands)
	m.HandleFunc("POST /bridge/v1/events", h.events)
}

func (h *Handler) log() *slog.Logger {
	if h.Log == nil {
		return slog.Default()
	}
	return h.Log
}

var (
	platformRe = regexp.MustCompile(`^[a-z][a-z0-9-]{1,15}$`)
	idRe       = regexp.MustCompile(`^[A-Za-z0-9._:@-]{1,100}$`)
)

// Command is the body of POST /bridge/v1/commands.
type Command struct {
	// ID is the relay's unique id of this request (the idempotency key).
	ID       string `json:"id"`
	Platform string `json:"platform"`
	// Space is the chat space bound to a game (guild, team, room).
	Space    string `json:"space"`
	Channel  string `json:"channel,omitempty"`
	User     string `json:"user"`
	UserName string `json:"user_name,omitempty"`
	// Command and Options name a command of the table ("trade offer",
	// {"player": "matrix:alice"}); or Action is a button's or select's
	// action from an earlier reply, with Value the chosen select value.
	Command string            `json:"command,omitempty"`
	Options map[string]string `json:"options,omitempty"`
	Action  string            `json:"action,omitempty"`
	Value   string            `json:"value,omitempty"`
	// Target is the message a message command was used on.
	Target *Target `json:"target,omitempty"`
}

// Target is a chat message a command is used on.
type Target struct {
	Channel string `json:"channel"`
	ID      string `json:"id"`
	Author  string `json:"author"`
	Content string `json:"content,omitempty"`
}

// Reply is the answer to a command: the neutral reply, with buttons and
// selects carrying the action string to send back.
type Reply struct {
	Title     string   `json:"title,omitempty"`
	Text      string   `json:"text,omitempty"`
	Fields    []Field  `json:"fields,omitempty"`
	Ephemeral bool     `json:"ephemeral"`
	Refusal   bool     `json:"refusal"`
	Buttons   []Button `json:"buttons,omitempty"`
	Selects   []Select `json:"selects,omitempty"`
}

// Field is a labelled value.
type Field struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// Button runs Action (send it back as Command.Action) when pressed.
type Button struct {
	Label  string `json:"label"`
	Style  string `json:"style,omitempty"`
	Action string `json:"action"`
}

// Select offers choices; send Action back with the chosen value in Value.
type Select struct {
	Placeholder string        `json:"placeholder,omitempty"`
	Action      string        `json:"action"`
	Choices     []chat.Choice `json:"choices"`
	Option      string        `json:"option"`
	// MinValues and MaxValues bound how many choices the user picks (both 1
	// for a single select); send several as one value joined with ",".
	MinValues int `json:"min_values"`
	MaxValues int `json:"max_values"`
}

func render(r *chat.Reply) Reply {
	out := Reply{Title: r.Title, Text: r.Text, Ephemeral: r.Ephemeral, Refusal: r.Refusal}
	for _, f := range r.Fields {
		out.Fields = append(out.Fields, Field(f))
	}
	for _, b := range r.Buttons {
		if a, err := chat.EncodeAction(b.Action); err == nil {
			out.Buttons = append(out.Buttons, Button{Label: b.Label, Style: b.Style, Action: a})
		}
	}
	for _, s := range r.Selects {
		a := chat.Action{Command: s.Action.Command, Options: map[string]string{selectOption: s.Option}}
		for k, v := range s.Action.Options {
			a.Options[k] = v
		}
		if enc, err := chat.EncodeAction(a); err == nil {
			lo, hi := s.Bounds(len(s.Choices))
			out.Selects = append(out.Selects, Select{Placeholder: s.Placeholder, Action: enc, Choices: s.Choices, Option: s.Option, MinValues: lo, MaxValues: hi})
		}
	}
	return out
}

// selectOption names, inside a select's action, the option its value fills.
const selectOption = "_select"

// read verifies and reads a request body and returns the scope of the
// secret that signed it; on failure it has answered.
func (h *Handler) read(w http.ResponseWriter, r *http.Request, v any) (credential.Scope, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			problem(w, http.StatusRequestEntityTooLarge, "body_too_large", fmt.Sprintf("The request body is over %d bytes.", MaxBody))
		} else {
			problem(w, http.StatusBadRequest, "invalid_request", "The request body could not be read.")
		}
		return credential.Scope{}, false
	}
	scope, err := Verify(h.Secrets, r.Header, body, h.Clock.Now())
	if err != nil {
		h.log().WarnContext(r.Context(), "bridge request refused", "err", err.Error(), "remote", r.RemoteAddr)
		problem(w, http.StatusUnauthorized, "invalid_signature", strings.TrimPrefix(err.Error(), "bridge: ")+".")
		return credential.Scope{}, false
	}
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		problem(w, http.StatusBadRequest, "invalid_json", "The body is not the expected JSON object: "+err.Error()+".")
		return credential.Scope{}, false
	}
	return scope, true
}

// inScope refuses (403) a request naming a platform or identities the
// secret that signed it may not act for; on failure it has answered.
func (h *Handler) inScope(w http.ResponseWriter, r *http.Request, scope credential.Scope, platform string, ids ...string) bool {
	if !scope.Platform(platform) {
		h.outOfScope(w, r, "platform_out_of_scope", fmt.Sprintf("This bridge secret may not act for %s users: it acts for %s.", platform, scope))
		return false
	}
	for _, id := range ids {
		if id != "" && !scope.Actor(id) {
			h.outOfScope(w, r, "actor_out_of_scope", fmt.Sprintf("This bridge secret may not act for %s: it acts for %s.", id, scope))
			return false
		}
	}
	return true
}

// gameInScope refuses (403) a request touching a game the secret may not.
func (h *Handler) gameInScope(w http.ResponseWriter, r *http.Request, scope credential.Scope, g string) bool {
	if g != "" && !scope.Game(g) {
		h.outOfScope(w, r, "game_out_of_scope", fmt.Sprintf("This bridge secret may not touch game %s: it is limited to %s.", g, scope))
		return false
	}
	return true
}

func (h *Handler) outOfScope(w http.ResponseWriter, r *http.Request, code, detail string) {
	h.log().WarnContext(r.Context(), "bridge request outside its secret's scope", "code", code, "remote", r.RemoteAddr)
	problem(w, http.StatusForbidden, code, detail)
}

// identity turns a relay's user id into a platform identity.
func identity(platform, user string) (string, error) {
	id := user
	if !strings.HasPrefix(user, platform+":") {
		id = chat.Identity(platform, user)
	}
	if !game.ValidIdentity(id) {
		return "", fmt.Errorf("user %q does not make a platform identity (%s:<1-64 of A-Z a-z 0-9 . _ @ ->)", user, platform)
	}
	return id, nil
}

func (c *Command) check() error {
	switch {
	case c.ID == "" || len(c.ID) > 200:
		return errors.New("id must be the relay's unique id of this request (1-200 characters)")
	case !platformRe.MatchString(c.Platform):
		return fmt.Errorf("platform %q is not a platform name such as matrix or irc", c.Platform)
	case c.Space != "" && !idRe.MatchString(c.Space):
		return fmt.Errorf("space %q is not a chat space id", c.Space)
	case (c.Command == "") == (c.Action == ""):
		return errors.New("give either command (with options) or action (from a button or select)")
	}
	return nil
}

func (h *Handler) commands(w http.ResponseWriter, r *http.Request) {
	var c Command
	scope, ok := h.read(w, r, &c)
	if !ok {
		return
	}
	if err := c.check(); err != nil {
		problem(w, http.StatusBadRequest, "invalid_request", upper(err.Error())+".")
		return
	}
	user, err := identity(c.Platform, c.User)
	if err != nil {
		problem(w, http.StatusBadRequest, "invalid_request", upper(err.Error())+".")
		return
	}
	// A message command names the message's author, whose words it acts on.
	var author string
	if c.Target != nil {
		author, _ = identity(c.Platform, c.Target.Author)
	}
	if !h.inScope(w, r, scope, c.Platform, user, author) {
		return
	}
	ctx := r.Context()
	inv := &chat.Invocation{Platform: c.Platform, Guild: c.Space, Channel: c.Channel, User: user, UserName: c.UserName,
		Command: c.Command, Options: c.Options, Key: c.ID}
	var rep *chat.Reply
	if c.Action != "" {
		a, err := chat.DecodeAction(c.Action)
		if err != nil {
			rep = chat.Refusal(rules.Refuse("invalid_option", "This button or select is not one the Croupier made; run the command again."))
		} else {
			if opt := a.Options[selectOption]; opt != "" {
				a.Options[opt] = c.Value
			}
			delete(a.Options, selectOption)
			inv.Command, inv.Options, inv.Component = a.Command, a.Options, true
		}
	}
	if c.Target != nil {
		inv.Target = &chat.MessageRef{Channel: c.Target.Channel, ID: c.Target.ID, Author: author, Content: c.Target.Content}
	}
	if rep == nil && !scope.EveryGame() {
		// The game comes from the space's binding (or, for bind, the
		// option): resolve it first to check it.
		g, refusal, err := h.gameOf(ctx, inv)
		if err != nil {
			h.fail(w, ctx, err)
			return
		}
		if rep = refusal; rep == nil && !h.gameInScope(w, r, scope, g) {
			return
		}
	}
	// Replies are cached under the relay's platform, apart from the
	// native integrations' ("bridge-slack" is not "slack"). The request id
	// is the relay's choice and no secret (a Matrix event id is visible to
	// the whole room), so it is claimed for this secret's scope and this
	// user before anything runs under it (after the scope checks: a 403
	// writes nothing): another secret or another user sending it is
	// refused, and gets neither the first reply nor a command run under
	// the first one's idempotency key.
	cl, err := h.Cache.Claim(ctx, "bridge-"+c.Platform, c.ID, chat.Owner("bridge "+scope.String(), user))
	if err != nil {
		h.cacheFailed(w, r, err)
		return
	}
	if cl.Reply != nil {
		writeJSON(w, http.StatusOK, cl.Reply)
		return
	}
	if rep == nil {
		rep = h.Router.Handle(ctx, inv)
	}
	b, err := json.Marshal(map[string]any{"reply": render(rep)})
	if err != nil {
		h.fail(w, ctx, err)
		return
	}
	if b, err = h.Cache.Fill(ctx, cl, rep.Logged, b); err != nil {
		h.cacheFailed(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

// cacheFailed answers a reply cache error: 409 for a request id someone
// else used first (chat.ErrReused), otherwise a failure.
func (h *Handler) cacheFailed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, chat.ErrReused) {
		h.log().WarnContext(r.Context(), "bridge request id reused by another secret or user", "remote", r.RemoteAddr)
		problem(w, http.StatusConflict, "request_id_reused", "That request id was already used by someone else; send each request with an id of its own.")
		return
	}
	h.fail(w, r.Context(), err)
}

// gameOf finds the game inv would act on, as the router will: the bound
// game, bind's game option, or none (help). A refusal comes back as the
// reply the router would give.
func (h *Handler) gameOf(ctx context.Context, inv *chat.Invocation) (string, *chat.Reply, error) {
	cmd, err := h.Router.Resolve(ctx, inv)
	var re *rules.Error
	switch {
	case errors.As(err, &re):
		return "", chat.Refusal(re), nil
	case err != nil:
		return "", nil, err
	case cmd.NoGame:
		return inv.Opt("game"), nil, nil
	}
	return inv.Game, nil, nil
}

// Event is the body of POST /bridge/v1/events.
type Event struct {
	ID       string `json:"id"`
	Platform string `json:"platform"`
	Space    string `json:"space"`
	// Type is reaction_added, reaction_removed, reactions_set,
	// message_edited or message_deleted.
	Type    string `json:"type"`
	Channel string `json:"channel"`
	Message string `json:"message"`
	// User and Emoji: who added or removed which reaction (👍 and 👎
	// count as votes; in an Obelisk game a Ritual Component's emoji on a
	// Gathering's message contributes or withdraws it; other emoji are
	// acknowledged and ignored).
	User  string `json:"user,omitempty"`
	Emoji string `json:"emoji,omitempty"`
	// Up and Down: the full sets of 👍 and 👎 reactors (reactions_set).
	Up   []string `json:"up,omitempty"`
	Down []string `json:"down,omitempty"`
}

// Event types.
const (
	ReactionAdded   = "reaction_added"
	ReactionRemoved = "reaction_removed"
	ReactionsSet    = "reactions_set"
	MessageEdited   = "message_edited"
	MessageDeleted  = "message_deleted"
)

func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	var e Event
	scope, ok := h.read(w, r, &e)
	if !ok {
		return
	}
	ctx := r.Context()
	if e.ID == "" || len(e.ID) > 200 || !platformRe.MatchString(e.Platform) || !idRe.MatchString(e.Space) {
		problem(w, http.StatusBadRequest, "invalid_request", "An event needs id (the relay's unique id), platform and space.")
		return
	}
	// Every reactor named is a vote cast for them: each must be someone
	// the secret acts for.
	var named []string
	for _, u := range append(append([]string{e.User}, e.Up...), e.Down...) {
		if id, err := identity(e.Platform, u); err == nil {
			named = append(named, id)
		}
	}
	if !h.inScope(w, r, scope, e.Platform, named...) {
		return
	}
	b, ok, err := h.Game.BindingFor(ctx, e.Platform, e.Space)
	if err != nil {
		h.fail(w, ctx, err)
		return
	}
	if !ok {
		problem(w, http.StatusUnprocessableEntity, "not_bound", fmt.Sprintf("The %s space %q is not bound to a game; bind it first.", e.Platform, e.Space))
		return
	}
	if !h.gameInScope(w, r, scope, b.Game) {
		return
	}
	msg := game.MessageRef{Platform: e.Platform, Channel: e.Channel, Message: e.Message}
	// The event id keys the push, so a relay's retry applies once; it is
	// no secret, so it is the id under this secret's scope: another
	// secret's event of the same id is its own push, neither answered
	// with this one's result nor swallowing it as a repeat.
	req := game.Request{Game: b.Game, Actor: "bridge:" + e.Platform, Key: "bridge-event:" + chat.Owner("bridge "+scope.String(), "") + ":" + e.ID}
	var res *game.Result
	switch e.Type {
	case ReactionAdded, ReactionRemoved:
		// err is the function's: the push's refusal below must reach
		// answer (a shadowing err here once left it nil, and answer
		// dereferenced the missing result).
		var user string
		if user, err = identity(e.Platform, e.User); err != nil {
			problem(w, http.StatusBadRequest, "invalid_request", upper(err.Error())+".")
			return
		}
		if c, ok := reactionComponent(e.Emoji); ok {
			rs, err := h.Game.RulesetOf(ctx, b.Game)
			if err != nil {
				h.fail(w, ctx, err)
				return
			}
			if rs == obelisk.ID {
				// The reactor contributes (or withdraws) the component on
				// the Gathering the message started (RULINGS O9), as if
				// they had pressed its button; the event id keys it, so a
				// relay's retry applies once.
				req.Actor = user
				m := obelisk.GatheringMove{Gathering: e.Message, Component: c.ID}
				if e.Type == ReactionRemoved {
					res, err = obelisk.On(h.Game).Withdraw(ctx, req, m)
				} else {
					res, err = obelisk.On(h.Game).Contribute(ctx, req, m)
				}
				h.answer(w, ctx, b.Game, res, err)
				return
			}
		}
		p := game.PushReactions{Message: msg, Op: "add"}
		if e.Type == ReactionRemoved {
			p.Op = "remove"
		}
		switch e.Emoji {
		case governance.ThumbsUp, "+1", "thumbsup":
			p.Up = []string{user}
		case governance.ThumbsDown, "-1", "thumbsdown":
			p.Down = []string{user}
		default:
			writeValue(w, http.StatusOK, map[string]any{"ignored": fmt.Sprintf("%q is not a voting reaction (👍 or 👎)", e.Emoji)})
			return
		}
		res, err = h.Game.PushReactions(ctx, req, p)
	case ReactionsSet:
		p := game.PushReactions{Message: msg, Op: "set"}
		for _, l := range []struct {
			in  []string
			out *[]string
		}{{e.Up, &p.Up}, {e.Down, &p.Down}} {
			for _, u := range l.in {
				id, err := identity(e.Platform, u)
				if err != nil {
					problem(w, http.StatusBadRequest, "invalid_request", upper(err.Error())+".")
					return
				}
				*l.out = append(*l.out, id)
			}
		}
		res, err = h.Game.PushReactions(ctx, req, p)
	case MessageEdited, MessageDeleted:
		ev := "edited"
		if e.Type == MessageDeleted {
			ev = "deleted"
		}
		res, err = h.Game.PushMessageEvent(ctx, req, game.MessageEvent{Message: msg, Event: ev})
	default:
		problem(w, http.StatusBadRequest, "invalid_request", fmt.Sprintf("Event type %q is not one of %s, %s, %s, %s, %s.", e.Type,
			ReactionAdded, ReactionRemoved, ReactionsSet, MessageEdited, MessageDeleted))
		return
	}
	h.answer(w, ctx, b.Game, res, err)
}

// answer writes an event's result: the game's response and the sentence
// its command's declaration says of it (Command.Says), or its refusal.
func (h *Handler) answer(w http.ResponseWriter, ctx context.Context, g string, res *game.Result, err error) {
	if err != nil {
		var re *rules.Error
		if errors.As(err, &re) {
			problem(w, http.StatusUnprocessableEntity, re.Code, re.Message)
			return
		}
		h.fail(w, ctx, err)
		return
	}
	w.Header().Set("Idempotent-Replayed", fmt.Sprint(res.Replayed))
	says := ""
	if res.Entry != nil {
		says = h.Game.Says(res.Entry.Command, res.Body, h.Game.Names(ctx, g, res.Names))
	}
	quoted, _ := json.Marshal(says)
	writeJSON(w, http.StatusOK, fmt.Appendf(nil, `{"game":%q,"result":%s,"says":%s}`, g, res.Body, quoted))
}

// componentShortcodes are the names chat platforms (Slack, Matrix
// bridges) give the Ritual Components' emoji.
var componentShortcodes = map[string]string{
	"zap": ruleset.Resolve, "gem": ruleset.Crystals, "herb": ruleset.Herbs,
	"alembic": ruleset.Reagents, "drop_of_blood": ruleset.Blood, "heart_on_fire": ruleset.Heart,
}

// reactionComponent is the Ritual Component a reaction's emoji (or its
// shortcode, with or without colons) stands for. Component ids are not
// reactions: Slack's "heart" is ❤️, not ❤️‍🔥.
func reactionComponent(emoji string) (ruleset.ComponentInfo, bool) {
	if id, ok := componentShortcodes[strings.Trim(emoji, ":")]; ok {
		return ruleset.Component(id)
	}
	if !strings.ContainsFunc(emoji, func(r rune) bool { return r > 0x7f }) {
		return ruleset.ComponentInfo{}, false
	}
	return ruleset.Component(emoji)
}

func (h *Handler) fail(w http.ResponseWriter, ctx context.Context, err error) {
	h.log().ErrorContext(ctx, "bridge request failed", "err", err.Error())
	problem(w, http.StatusInternalServerError, "internal", "The Croupier could not complete the request; nothing was half-applied. Please retry.")
}

func writeJSON(w http.ResponseWriter, status int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeValue(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	writeJSON(w, status, b)
}

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
