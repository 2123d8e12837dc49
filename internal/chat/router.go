package chat

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// Router runs invocations against the game service.
type Router struct {
	Game *game.Service
	Log  *slog.Logger
	// CardImage, when set, gives the public URL of a card's PNG (the
	// tracker's /cards/ route), so replies about cards show them.
	CardImage func(name string, holo bool) string
	// spaces caches the bindings read, matches each player's only running
	// match (spaces.go).
	spaces  spaces
	matches guesses
}

// NewRouter returns a router over svc; log nil means slog.Default().
func NewRouter(svc *game.Service, log *slog.Logger) *Router {
	if log == nil {
		log = slog.Default()
	}
	return &Router{Game: svc, Log: log}
}

func refusef(code, format string, args ...any) *rules.Error {
	return rules.Refuse(code, format, args...)
}

// Handle runs inv and always returns a reply: refusals and failures are
// replies too (ephemeral), never panics.
func (r *Router) Handle(ctx context.Context, inv *Invocation) (reply *Reply) {
	log := r.Log.With("platform", inv.Platform, "guild", inv.Guild, "command", inv.Command, "actor", inv.User, "key", inv.Key)
	defer func() {
		if v := recover(); v != nil {
			log.ErrorContext(ctx, "chat command panicked", "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			reply = failed()
		}
	}()
	rep, logged, err := r.run(context.WithValue(ctx, guessesKey{}, &r.matches), inv)
	if err != nil {
		var re *rules.Error
		if errors.As(err, &re) {
			log.InfoContext(ctx, "chat command refused", "code", re.Code)
			return Refusal(re)
		}
		log.ErrorContext(ctx, "chat command failed", "err", err.Error())
		return failed()
	}
	if rep == nil {
		rep = &Reply{Text: "Done.", Ephemeral: true}
	}
	rep.Logged = logged
	if inv.OnShared() {
		// One player's answer never takes over a message others use.
		rep.Ephemeral = true
	}
	if inv.SharedMessage() == nil {
		rep.Shared = nil
	}
	r.pictures(rep)
	return rep
}

// pictures adds the images of the reply's cards.
func (r *Router) pictures(rep *Reply) {
	if r.CardImage == nil {
		return
	}
	for _, c := range rep.Cards {
		if len(rep.Images) == MaxImages {
			break
		}
		alt := c.Name
		if c.Holo {
			alt += " (holographic)"
		}
		rep.Images = append(rep.Images, Image{URL: r.CardImage(c.Name, c.Holo), Alt: alt})
	}
}

// Refusal renders a rule refusal: the rule's own sentence, privately.
func Refusal(re *rules.Error) *Reply {
	return &Reply{Text: re.Message, Ephemeral: true, Refusal: true}
}

func failed() *Reply {
	return &Reply{Text: "Something went wrong on the Croupier's side and the command could not be completed. Please try again in a moment.",
		Ephemeral: true, Refusal: true}
}

// Lookup returns the command named name: the table's, or else a command
// of the catalogue of the rulesets the service runs that the table does
// not cover (catalogue.go).
func (r *Router) Lookup(name string) (Command, bool) {
	if c, ok := Lookup(name); ok {
		return c, true
	}
	return catalogueLookup(r.Game.Registry, name)
}

// Resolve finds inv's command, checks its options, and sets inv.Game from
// the binding of inv's space (read now, and cached for the next command).
func (r *Router) Resolve(ctx context.Context, inv *Invocation) (Command, error) {
	cmd, err := r.command(inv)
	if err != nil || cmd.NoGame || inv.Game != "" {
		return cmd, err
	}
	if inv.Guild == "" {
		return cmd, refusef("not_bound", "Game commands work in a server bound to a game, not in direct messages.")
	}
	inv.Game, err = r.binding(ctx, inv)
	return cmd, err
}

// command finds inv's command and checks its options.
func (r *Router) command(inv *Invocation) (Command, error) {
	cmd, ok := r.Lookup(inv.Command)
	if !ok {
		var names []string
		for _, c := range Commands() {
			names = append(names, c.Name)
		}
		return Command{}, refusef("unknown_command", "There is no command %q here%s; /help lists them.", inv.Command, didYouMean(inv.Command, names))
	}
	if inv.Options == nil {
		inv.Options = map[string]string{}
	}
	return cmd, checkOptions(cmd, inv)
}

// run runs inv's command and reports whether a game command's log entry
// holds its outcome.
func (r *Router) run(ctx context.Context, inv *Invocation) (*Reply, bool, error) {
	cmd, err := r.command(inv)
	if err != nil {
		return nil, false, err
	}
	if cmd.NoGame || inv.Game != "" {
		bc := &game.BoundCall{}
		rep, err := handle(game.WithBoundCall(ctx, bc), cmd, r.Game, inv)
		return rep, bc.Logged(), err
	}
	if inv.Guild == "" {
		return nil, false, refusef("not_bound", "Game commands work in a server bound to a game, not in direct messages.")
	}
	return r.runBound(ctx, cmd, inv)
}

// checkOptions refuses missing required options, values outside the
// choices, and integers that are not integers or out of bounds: the
// platform shows the same sentence whatever client sent the request.
func checkOptions(cmd Command, inv *Invocation) error {
	for _, o := range cmd.Options {
		v := inv.Opt(o.Name)
		if v == "" {
			if o.Required {
				return refusef("missing_option", "/%s needs the option %s (%s).", cmd.Name, o.Name, o.Description)
			}
			continue
		}
		if len(o.Choices) > 0 && !slices.ContainsFunc(o.Choices, func(c Choice) bool { return c.Value == v }) {
			labels := make([]string, len(o.Choices))
			for i, c := range o.Choices {
				labels[i] = c.Value
			}
			return refusef("invalid_option", "Option %s cannot be %q; choose one of %s.", o.Name, v, strings.Join(labels, ", "))
		}
		switch o.Type {
		case Integer:
			n, err := strconv.Atoi(v)
			if err != nil {
				return refusef("invalid_option", "Option %s must be a whole number, not %q.", o.Name, v)
			}
			if o.Min != nil && n < *o.Min || o.Max != nil && n > *o.Max {
				return refusef("invalid_option", "Option %s must be between %s and %s; %d is not.", o.Name, bound(o.Min, "-∞"), bound(o.Max, "∞"), n)
			}
		case Boolean:
			if _, err := strconv.ParseBool(v); err != nil {
				return refusef("invalid_option", "Option %s must be true or false, not %q.", o.Name, v)
			}
		case User:
			// A mention, an id or a display name: the handler's call
			// resolves it (handle).
			if len(v) > 200 {
				return refusef("invalid_option", "Option %s must name a player: a mention, an id or a display name, not %d characters.", o.Name, len(v))
			}
		}
	}
	return nil
}

// handle runs cmd's handler for inv once its player options name players
// by identity: each is resolved from the mention, id or display name the
// user gave (game.ResolvePlayer, the one resolver every edge uses), so a
// handler reads identities only, and an unknown or ambiguous name is
// refused with its candidates before anything runs.
func handle(ctx context.Context, cmd Command, s *game.Service, inv *Invocation) (*Reply, error) {
	for _, o := range cmd.Options {
		if v := inv.Opt(o.Name); o.Type == User && v != "" && inv.Game != "" && !game.ValidIdentity(v) {
			id, err := s.ResolvePlayer(ctx, req(inv), v)
			if err != nil {
				return nil, err
			}
			inv.Options[o.Name] = id
		}
	}
	if cmd.Past && inv.Opt(AtOption) != "" && inv.Game != "" {
		return pastView(ctx, cmd, s, inv)
	}
	return cmd.Handler(ctx, s, inv)
}

func bound(p *int, none string) string {
	if p == nil {
		return none
	}
	return strconv.Itoa(*p)
}

// MaxChoices is the most autocomplete suggestions returned (Discord's limit).
const MaxChoices = 25

// Complete suggests values for option of inv's command as the user types
// partial. Failures (an unbound server, an unknown command) suggest nothing:
// the command itself will explain when it is sent.
func (r *Router) Complete(ctx context.Context, inv *Invocation, option, partial string) (out []Choice) {
	defer func() {
		if v := recover(); v != nil {
			r.Log.ErrorContext(ctx, "autocomplete panicked", "command", inv.Command, "option", option, "panic", fmt.Sprint(v))
			out = nil
		}
	}()
	cmd, ok := r.Lookup(inv.Command)
	if !ok {
		return nil
	}
	o, ok := cmd.Option(option)
	if !ok {
		return nil
	}
	if len(o.Choices) > 0 {
		return filterChoices(o.Choices, partial)
	}
	if o.suggest == nil {
		return nil
	}
	fn := suggestion(o.suggest)
	if inv.Options == nil {
		inv.Options = map[string]string{}
	}
	if !cmd.NoGame && inv.Game == "" {
		// Suggestions only: a cached binding is good enough.
		if e, ok := r.spaces.get(inv.Platform + ":" + inv.Guild); ok {
			inv.Game = e.game
		} else if g, err := r.binding(ctx, inv); err == nil {
			inv.Game = g
		} else {
			return nil
		}
	}
	choices, err := fn(ctx, r.Game, inv, partial)
	if err != nil {
		var re *rules.Error
		if !errors.As(err, &re) {
			r.Log.WarnContext(ctx, "autocomplete failed", "command", inv.Command, "option", option, "err", err.Error())
		}
		return nil
	}
	if len(choices) > MaxChoices {
		choices = choices[:MaxChoices]
	}
	return choices
}

// suggestion is the completion of a declared argument's source of
// suggestions (game.Arg.Suggest), filtered by what is typed.
func suggestion(sg *game.Suggest) CompletionFunc {
	return func(ctx context.Context, s *game.Service, inv *Invocation, partial string) ([]Choice, error) {
		cs, err := sg.List(ctx, s, game.SuggestQuery{Game: inv.Game, Actor: inv.User, Args: inv.Options, Partial: partial})
		if err != nil {
			return nil, err
		}
		out := make([]Choice, 0, len(cs))
		for _, c := range cs {
			out = append(out, Choice{Label: c.Label, Value: c.Value})
		}
		return filterChoices(out, partial), nil
	}
}

// filterChoices keeps the choices whose label or value contains partial
// (case-insensitive), at most MaxChoices.
func filterChoices(cs []Choice, partial string) []Choice {
	p := strings.ToLower(strings.TrimSpace(partial))
	out := []Choice{}
	for _, c := range cs {
		if p == "" || strings.Contains(strings.ToLower(c.Label), p) || strings.Contains(strings.ToLower(c.Value), p) {
			out = append(out, c)
			if len(out) == MaxChoices {
				break
			}
		}
	}
	return out
}

// CardImageURL returns where card pictures are served under base, the
// deployment's public URL (the tracker's /cards/ route: PNG, since Discord
// shows no SVG), or nil when base is empty: replies then show no pictures.
func CardImageURL(base string) func(name string, holo bool) string {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	if base == "" {
		return nil
	}
	return func(name string, holo bool) string {
		slug := ruleset.CardSlug(name)
		if holo {
			slug += "-holo"
		}
		return base + "/cards/" + slug + ".png"
	}
}
