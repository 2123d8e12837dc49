package chat

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules"
	"croupier/internal/rules/exoptosis"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// Exoptosis (RULINGS X1-X11): duels, battles and the moves of a match. The
// commands are "duel request", "duel answer", "battle", "match status" and
// "match move" (every move kind, with its options);
// a match option left empty means the caller's only running match. Card
// options autocomplete with the cards the caller may use now (their legal
// moves: the selectable deck cards, the playable or addable cards, the
// cards they can give): the module's suggestions (gildedhall.Suggest*).

// exoptosisPresenters mark Exoptosis's replies that run from their
// declarations (/battle).
var exoptosisPresenters = map[string]Presenter{
	"battle-engage": func(_ context.Context, _ *game.Service, _ *Invocation, _ *game.Result, r *Reply) {
		r.Text = "⚔️ " + r.Text
	},
}

func exoptosisCommands() []Command {
	match := Option{Name: "match", Description: "The match (default: your only running match)", Complete: Completion(gildedhall.SuggestMyMatches.Name), suggest: &gildedhall.SuggestMyMatches}
	var kinds []Choice
	for _, k := range gildedhall.MoveKinds() {
		if k != exoptosis.MoveBet { // raise says it
			kinds = append(kinds, Choice{Label: k, Value: k})
		}
	}
	cmds := []Command{
		Command{Name: "duel request", Runs: []string{"duel-request"}, Description: "Ask players to a duel",
			Options: []Option{
				{Name: "player", Description: "A player to duel", Type: User, Required: true},
				{Name: "player2", Description: "Another player", Type: User},
				{Name: "player3", Description: "Another player", Type: User},
				{Name: "player4", Description: "Another player", Type: User},
			},
			Handler: duelRequest},
		Command{Name: "duel answer", Runs: []string{"duel-accept", "duel-decline"}, Description: "Accept or decline a duel",
			Options: []Option{{Name: "accept", Description: "true accepts; false declines (cancels the duel)", Type: Boolean, Required: true}, match},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				return duelAnswer(ctx, s, inv, inv.Bool("accept"))
			}},
		Command{Name: "match status", Runs: []string{"matches"}, Private: true, Description: "A match and your legal moves",
			Options: []Option{match, {Name: "replay", Description: "Show the match move by move instead", Type: Boolean}},
			Handler: func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
				if inv.Bool("replay") {
					return matchReplay(ctx, s, inv)
				}
				return matchStatus(ctx, s, inv)
			}},
		// One command for every move: a platform's menus stay short, and
		// the card option completes with exactly the cards the caller's
		// legal moves name, whatever the kind.
		Command{Name: "match move", Runs: matchMoves(), Description: "Make a move in a match",
			Options: []Option{
				{Name: "kind", Description: "The move", Required: true, Choices: kinds},
				{Name: "card", Description: "play, add, give: the card; select: cards, comma-separated; a Queen's card", Complete: Completion(gildedhall.SuggestMatchCards.Name), suggest: &gildedhall.SuggestMatchCards},
				{Name: "player", Description: "giver: who gives you a card; target: the (first) target", Type: User},
				{Name: "player2", Description: "target: a King's second target", Type: User},
				{Name: "level", Description: "raise: the new level (what each must bet in all)", Type: Integer, Min: intp(1)},
				match,
			},
			Handler: moveHandler(buildMove)},
		// The components of a match view run these (see controls).
		Command{Name: "match hand", Runs: matchMoves(), Hidden: true, Description: "Build your hand card by card, then select it",
			Options: []Option{{Name: "match", Description: "The match", Required: true},
				{Name: "picks", Description: "The cards picked so far (encoded)"},
				{Name: "card", Description: "A card to pick, or to take back if picked"},
				{Name: "done", Description: "true selects the picked cards", Type: Boolean}},
			Handler: matchHand},
		Command{Name: "match pick", Runs: matchMoves(), Hidden: true, Description: "Make one of your legal moves",
			Options: []Option{{Name: "match", Description: "The match", Required: true},
				{Name: "move", Description: "The move: kind|card|player|player2|level", Required: true}},
			Handler: moveHandler(pickedMove)},
	}
	return cmds
}

// matchOf is the match option, or the caller's only running match. The
// caller's live matches come from their own index (LiveMatches), so the
// lookup does not grow with the matches the game has had.
func matchOf(ctx context.Context, s *game.Service, inv *Invocation) (string, error) {
	if id := inv.Opt("match"); id != "" {
		return id, nil
	}
	live, err := gildedhall.On(s).LiveMatches(ctx, inv.Game, inv.User)
	if err != nil {
		return "", err
	}
	var running []string
	for _, m := range live {
		if m.Status == gildedhall.MatchPlaying {
			running = append(running, m.ID)
		}
	}
	if len(running) != 1 {
		guessesOf(ctx).put(inv.Game, inv.User, "")
		return "", refusef("invalid_option", "You have %d running matches; name one with the match option.", len(running))
	}
	guessesOf(ctx).put(inv.Game, inv.User, running[0])
	return running[0], nil
}

// errStaleGuess stands for "no guess tried yet" in moveHandler.
var errStaleGuess = refusef(gildedhall.CodeStaleGuess, "No match guessed.")

func isStaleGuess(err error) bool {
	var re *rules.Error
	return errors.As(err, &re) && re.Code == gildedhall.CodeStaleGuess
}

func duelRequest(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	var ps []string
	for _, o := range []string{"player", "player2", "player3", "player4"} {
		if p := inv.Opt(o); p != "" {
			ps = append(ps, p)
		}
	}
	v, err := decoded[*gildedhall.MatchView](gildedhall.On(s).RequestDuel(ctx, req(inv), gildedhall.RequestDuel{Invitees: ps}))
	if err != nil {
		return nil, err
	}
	return duelMessage(*v), nil
}

// duelMessage is a duel invitation's shared message: who asks whom, who
// has accepted and who it waits for, with the answer buttons while it
// waits; then that it started or was cancelled.
func duelMessage(v gildedhall.MatchView) *Reply {
	r := &Reply{Title: "Duel " + v.ID}
	var invited, accepted []string
	for _, p := range v.Players {
		if p == v.RequestedBy {
			continue
		}
		invited = append(invited, p)
		if v.Answers[p] == gildedhall.AnswerAccepted {
			accepted = append(accepted, p)
		}
	}
	r.Text = fmt.Sprintf("⚔️ %s asks %s to an Exoptosis duel.", v.RequestedBy, strings.Join(invited, ", "))
	switch v.Status {
	case gildedhall.MatchCancelled:
		r.Text += fmt.Sprintf(" It is cancelled (%s by %s).", v.CancelReason, v.CancelledBy)
	case gildedhall.MatchRequested:
		r.Text += " It starts when everyone accepts; a decline cancels it."
		if len(accepted) > 0 {
			r.Text += " Accepted: " + strings.Join(accepted, ", ") + "; waiting for: " + strings.Join(v.WaitingFor, ", ") + "."
		}
		accept := Action{Command: "duel answer", Options: map[string]string{"match": v.ID, "accept": "true"}}
		decline := Action{Command: "duel answer", Options: map[string]string{"match": v.ID, "accept": "false"}}
		r.Buttons = []Button{{Label: "Accept", Style: StyleSuccess, Action: accept}, {Label: "Decline", Style: StyleDanger, Action: decline}}
	default:
		r.Text += " Everyone accepted: the duel has started."
	}
	return r
}

func duelAnswer(ctx context.Context, s *game.Service, inv *Invocation, accept bool) (*Reply, error) {
	// Without a match, the declared default: the only duel waiting for
	// the caller's answer.
	command := "duel-decline"
	if accept {
		command = "duel-accept"
	}
	c := hallDecl(gildedhall.Exoptosis(), command)
	v, err := decoded[*gildedhall.MatchView](c.Call.Run(ctx, s, req(inv), &gildedhall.MatchRef{Match: inv.Opt("match")}))
	if err != nil {
		return nil, err
	}
	var r *Reply
	switch v.Status {
	case gildedhall.MatchCancelled:
		r = &Reply{Text: fmt.Sprintf("Duel %s is cancelled (%s by %s).", v.ID, v.CancelReason, v.CancelledBy)}
	case gildedhall.MatchPlaying:
		r = &Reply{Text: fmt.Sprintf("⚔️ Duel %s has started between %s: select your hands (/match move kind:select).", v.ID, strings.Join(v.Players, ", "))}
	default:
		r = &Reply{Text: fmt.Sprintf("%s accepted duel %s; it waits for %s.", inv.User, v.ID, strings.Join(v.WaitingFor, ", "))}
	}
	if inv.SharedMessage() != nil {
		r.Shared = duelMessage(*v)
	}
	return r, nil
}

// moveHandler runs one move in the match option (or the caller's only
// running match) and answers with what happened and who is next.
func moveHandler(build func(inv *Invocation) (gildedhall.MatchMove, error)) Handler {
	return func(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
		mv, err := build(inv)
		if err != nil {
			return nil, err
		}
		var (
			r   *gildedhall.MoveResult
			res *game.Result
		)
		move := func() {
			res, err = gildedhall.On(s).Move(ctx, req(inv), mv)
			r, err = decoded[*gildedhall.MoveResult](res, err)
		}
		err = errStaleGuess
		if id, ok := guessesOf(ctx).get(inv.Game, inv.User); ok && inv.Opt("match") == "" {
			mv.Match, mv.Guessed = id, true
			move()
		}
		if isStaleGuess(err) {
			if mv.Match, err = matchOf(ctx, s, inv); err != nil {
				return nil, err
			}
			mv.Guessed = false
			move()
		}
		if err != nil {
			return nil, err
		}
		if r.Match.Status == gildedhall.MatchEnded {
			guessesOf(ctx).put(inv.Game, inv.User, "")
		}
		// What the move did, as every edge says it (the command's Says),
		// then who the match waits for.
		said := s.Says("match-"+mv.Kind, res.Body, mentionedNames(ctx, s, inv, res.Names))
		rep := &Reply{Title: fmt.Sprintf("%s: %s", r.Match.ID, mv.Kind), Text: lines([]string{said, nextText(r.Match)})}
		if inv.SharedMessage() != nil {
			// A move pressed on a match's message in the channel: the
			// message tells everyone what happened; the mover's next
			// controls are theirs alone.
			pub := *rep
			rep.Shared = &pub
		}
		// The mover moves again (a choice after their play, the next
		// betting round...): offer their moves right here.
		if r.Match.Status == gildedhall.MatchPlaying && slices.Contains(r.Match.Movers, inv.User) {
			if v, err := gildedhall.On(s).Match(ctx, inv.Game, r.Match.ID, inv.User); err == nil {
				if err := controls(ctx, s, inv, v, nil, rep); err != nil {
					return nil, err
				}
			}
		}
		return rep, nil
	}
}

// nextText says what the match waits for now, or how it ended.
func nextText(v gildedhall.MatchView) string {
	if v.Status == gildedhall.MatchEnded {
		if v.Winner == "" {
			return fmt.Sprintf("🏁 The match ended without a winner (%s); bets refunded.", game.Words(v.EndReason))
		}
		return fmt.Sprintf("🏆 %s won (%s) a pool of %s.", v.Winner, game.Words(v.EndReason), plural(v.Pool, "Chip", "Chips"))
	}
	if len(v.Movers) == 0 {
		return ""
	}
	s := "Waiting for " + strings.Join(v.Movers, ", ")
	if v.Deadline != nil {
		s += " until " + v.Deadline.UTC().Format(time.RFC1123)
	}
	return s + "."
}

func matchStatus(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	id, err := matchOf(ctx, s, inv)
	if err != nil {
		return nil, err
	}
	v, err := gildedhall.On(s).Match(ctx, inv.Game, id, inv.User)
	if err != nil {
		return nil, err
	}
	r := matchStatusReply(v)
	if err := controls(ctx, s, inv, v, nil, r); err != nil {
		return nil, err
	}
	return r, nil
}

// matchStatusReply is the viewer's private view of v.
func matchStatusReply(v gildedhall.MatchView) *Reply {
	r := &Reply{Title: fmt.Sprintf("%s %s: %s %s", v.Kind, v.ID, v.Status, v.Phase), Ephemeral: true}
	for _, p := range v.Participants {
		hand := strings.Join(p.Hand, ", ")
		if p.Hidden {
			hand = "hidden until every hand is in"
		}
		r.Fields = append(r.Fields, Field{Name: fmt.Sprintf("%s (%s, bet %d)", p.ID, p.Status, p.Bet), Value: clip(hand, 1000)})
	}
	var ls []string
	if v.Top != "" {
		ls = append(ls, "Pile top: "+v.Top)
	}
	if v.Pool > 0 {
		ls = append(ls, "Pool: "+plural(v.Pool, "Chip", "Chips"))
	}
	if v.Pending != nil {
		ls = append(ls, fmt.Sprintf("Pending: %s owes a %s choice", v.Pending.Owner, v.Pending.Kind))
	}
	ls = append(ls, nextText(v))
	var moves []string
	for _, m := range v.LegalMoves {
		moves = append(moves, words(m.Kind, m.Card, m.Target, strings.Join(m.Targets, " & ")))
		if m.Kind == exoptosis.MoveSelect {
			moves[len(moves)-1] = "select 4+ of: " + strings.Join(m.Cards, ", ")
		}
		if m.Kind == exoptosis.MoveRaise {
			moves[len(moves)-1] = fmt.Sprintf("raise to %d", m.Amount)
		}
	}
	if len(moves) > 0 {
		ls = append(ls, "Your moves: "+clip(strings.Join(slices.Compact(moves), "; "), 1500))
	}
	r.Text = lines(ls)
	return r
}

func matchReplay(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	id, err := matchOf(ctx, s, inv)
	if err != nil {
		return nil, err
	}
	rp, err := gildedhall.On(s).Replay(ctx, inv.Game, id, inv.User)
	if err != nil {
		return nil, err
	}
	var ls []string
	for i, e := range rp.Log {
		switch {
		case e.Timeout:
			ls = append(ls, fmt.Sprintf("%d. timeout", i+1))
		case e.Move != nil:
			m := e.Move
			ls = append(ls, words(fmt.Sprintf("%d.", i+1), m.Actor, m.Kind, m.Card, m.Target, strings.Join(m.Targets, " & ")))
		}
	}
	return &Reply{Title: fmt.Sprintf("Replay of %s %s (%s)", rp.Kind, rp.ID, rp.Status), Ephemeral: true, Text: clip(lines(ls), 3800)}, nil
}

// buildMove reads the options of "match move" as the move of its kind.
func buildMove(inv *Invocation) (gildedhall.MatchMove, error) {
	mv := gildedhall.MatchMove{Kind: inv.Opt("kind")}
	switch mv.Kind {
	case exoptosis.MoveSelect:
		for _, c := range strings.Split(inv.Opt("card"), ",") {
			if c = strings.TrimSpace(c); c != "" {
				mv.Cards = append(mv.Cards, c)
			}
		}
	case exoptosis.MoveRaise, exoptosis.MoveBet:
		n, err := inv.Int("level")
		if err != nil {
			return mv, err
		}
		mv.Amount = n
	case exoptosis.MoveGiver:
		mv.Target = inv.Opt("player")
	case exoptosis.MoveTarget:
		for _, o := range []string{"player", "player2"} {
			if p := inv.Opt(o); p != "" {
				mv.Targets = append(mv.Targets, p)
			}
		}
		mv.Card = inv.Opt("card")
	default:
		mv.Card = inv.Opt("card")
	}
	return mv, nil
}

// words joins the non-empty parts with single spaces (events and moves
// leave fields empty that do not apply to them).
func words(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return strings.TrimSpace(p) == "" }), " ")
}

// MaxSelectChoices is the most entries a select offers (Discord's limit);
// moves beyond it stay reachable with /match move.
const MaxSelectChoices = 25

// controls adds to r the components that make the viewer's legal moves in
// v without typing. In selection: one multi-select of the whole hand when
// the selectable cards fit a menu (at most MaxSelectChoices); otherwise a
// select that adds a card to the hand being built (picks, travelling in
// the component's action), one that takes a card back, and, once the hand
// is big enough, a button that selects it. In betting: buttons for match,
// decline and pass and a select of raises. In play: one select of the
// plays, adds, givers, gives or targets. Forfeit and terminate stay typed
// commands: a misclick must not end a match.
func controls(ctx context.Context, s *game.Service, inv *Invocation, v gildedhall.MatchView, picks []string, r *Reply) error {
	if v.Status != gildedhall.MatchPlaying {
		return nil
	}
	name := playerNames(ctx, s, inv.Game, nil)
	pick := func(opts map[string]string) Action {
		o := map[string]string{"match": v.ID}
		for k, x := range opts {
			o[k] = x
		}
		return Action{Command: "match pick", Options: o}
	}
	var raises, plays []Choice
	for _, m := range v.LegalMoves {
		switch m.Kind {
		case exoptosis.MoveSelect:
			return handControls(ctx, s, inv, v, m.Cards, picks, r)
		case exoptosis.MoveMatch, exoptosis.MoveDecline, exoptosis.MovePass:
			style := StylePrimary
			if m.Kind == exoptosis.MoveDecline {
				style = StyleDanger
			}
			r.Buttons = append(r.Buttons, Button{Label: strings.ToUpper(m.Kind[:1]) + m.Kind[1:], Style: style,
				Action: pick(map[string]string{"move": m.Kind})})
		case exoptosis.MoveRaise:
			raises = append(raises, Choice{Label: fmt.Sprintf("Raise to %d", m.Amount), Value: encodeMove(m)})
		case exoptosis.MovePlay, exoptosis.MoveAdd, exoptosis.MoveGiver, exoptosis.MoveGive, exoptosis.MoveTarget:
			plays = append(plays, Choice{Label: clip(moveLabel(m, v.Pending, name), 100), Value: encodeMove(m)})
		}
	}
	if len(raises) > 0 {
		r.Selects = append(r.Selects, Select{Placeholder: "Raise to…", Action: pick(nil), Option: "move", Choices: raises[:min(len(raises), MaxSelectChoices)]})
	}
	if len(plays) > 0 {
		r.Selects = append(r.Selects, Select{Placeholder: "Your move…", Action: pick(nil), Option: "move", Choices: plays[:min(len(plays), MaxSelectChoices)]})
		if len(plays) > MaxSelectChoices {
			r.Text = lines([]string{r.Text, fmt.Sprintf("The menu lists %d of your %d moves; /match move makes any of them.", MaxSelectChoices, len(plays))})
		}
	}
	return nil
}

// moveLabel says what a move of play does, for a select entry.
func moveLabel(m exoptosis.Move, pending *exoptosis.Pending, name func(string) string) string {
	switch m.Kind {
	case exoptosis.MovePlay:
		return "Play " + m.Card
	case exoptosis.MoveAdd:
		return "Add " + m.Card + " from your deck"
	case exoptosis.MoveGiver:
		return "Ask " + name(m.Target) + " to give you a card"
	case exoptosis.MoveGive:
		if pending != nil && pending.Receiver != "" {
			return "Give " + m.Card + " to " + name(pending.Receiver)
		}
		return "Give " + m.Card
	}
	ts := make([]string, len(m.Targets))
	for i, t := range m.Targets {
		ts[i] = name(t)
	}
	switch {
	case m.Card != "": // a Queen: the card leaves the match
		return fmt.Sprintf("Queen: %s leaves %s's hand", m.Card, strings.Join(ts, ""))
	case len(ts) == 2:
		return fmt.Sprintf("King: %s and %s draw 1", ts[0], ts[1])
	case pending != nil && pending.Kind == exoptosis.ChoiceAce:
		return "Ace: " + strings.Join(ts, "") + " draws 2"
	}
	return "Target " + strings.Join(ts, " & ")
}

// moveFields are the options of "match move" a picked move fills, in the
// order of its encoding.
var moveFields = []string{"kind", "card", "player", "player2", "level"}

// encodeMove writes a legal move as a select value:
// kind|card|player|player2|level, trailing empty fields left out ("play|7
// of Hearts", "target||discord:1|discord:2", "raise||||3").
func encodeMove(m exoptosis.Move) string {
	f := []string{m.Kind, m.Card, m.Target, "", ""}
	if len(m.Targets) > 0 {
		f[2] = m.Targets[0]
	}
	if len(m.Targets) > 1 {
		f[3] = m.Targets[1]
	}
	if m.Amount > 0 {
		f[4] = strconv.Itoa(m.Amount)
	}
	return strings.TrimRight(strings.Join(f, "|"), "|")
}

// pickedMove reads the move option of "match pick" (see encodeMove) as the
// options of "match move".
func pickedMove(inv *Invocation) (gildedhall.MatchMove, error) {
	f := strings.Split(inv.Opt("move"), "|")
	if len(f) > len(moveFields) || !slices.Contains(gildedhall.MoveKinds(), strings.TrimSpace(f[0])) {
		return gildedhall.MatchMove{}, refusef("invalid_option", "%q is not a move this menu offers; use /match move.", inv.Opt("move"))
	}
	for i, name := range moveFields {
		inv.Options[name] = ""
		if i < len(f) {
			inv.Options[name] = f[i]
		}
	}
	return buildMove(inv)
}

// multiSelectable reports whether the selectable cards avail fit one
// multi-select: at most MaxSelectChoices of them (Discord's cap), none with
// a comma (the chosen names travel comma-separated) or longer than a select
// value may be (100 characters on Discord).
func multiSelectable(avail []string) bool {
	if len(avail) > MaxSelectChoices {
		return false
	}
	for _, c := range avail {
		if c == "" || len(c) > 100 || strings.Contains(c, ",") {
			return false
		}
	}
	return true
}

// handControls offers the choice of a hand from the selectable cards avail
// (see controls): one multi-select when they fit one menu, otherwise the
// building of the hand a card at a time, picks being the cards picked so
// far.
func handControls(ctx context.Context, s *game.Service, inv *Invocation, v gildedhall.MatchView, avail, picks []string, r *Reply) error {
	rs, err := s.Ruleset(ctx, inv.Game)
	if err != nil {
		return err
	}
	least := rs.Thresholds.HandMinCards
	if least <= 0 {
		least = exoptosis.DefaultHandMin
	}
	if multiSelectable(avail) {
		// Every eligible card fits one menu: the whole hand is chosen in
		// one multi-select whose choice is the select move itself (the
		// chosen names arrive comma-separated in option card).
		choices := make([]Choice, len(avail))
		for i, c := range avail {
			choices[i] = Choice{Label: c, Value: c}
		}
		r.Selects = append(r.Selects, Select{Placeholder: fmt.Sprintf("Choose your hand (%d to %d cards)", least, len(avail)),
			Action: Action{Command: "match move", Options: map[string]string{"match": v.ID, "kind": exoptosis.MoveSelect}},
			Option: "card", Choices: choices, MinValues: least, MaxValues: len(avail)})
		return nil
	}
	r.Text = lines([]string{r.Text, fmt.Sprintf("Your deck has %d cards you can select, more than one menu lists (%d): build your hand a card at a time, or type /match move kind:select.", len(avail), MaxSelectChoices)})
	var picked, rest []Choice
	var names []string
	for _, c := range avail {
		if slices.Contains(picks, c) {
			picked = append(picked, Choice{Label: c, Value: c})
			names = append(names, c)
		} else {
			rest = append(rest, Choice{Label: c, Value: c})
		}
	}
	enc, err := encodePicks(cardTable(rs.Cards), names)
	if err != nil {
		return err
	}
	opts := func(extra ...string) map[string]string {
		o := map[string]string{"match": v.ID}
		if enc != "" {
			o["picks"] = enc
		}
		for i := 0; i+1 < len(extra); i += 2 {
			o[extra[i]] = extra[i+1]
		}
		return o
	}
	act := Action{Command: "match hand", Options: opts()}
	if len(rest) > 0 {
		r.Selects = append(r.Selects, Select{Placeholder: fmt.Sprintf("Add a card to your hand (%d picked; %d or more)", len(picked), least),
			Action: act, Option: "card", Choices: rest[:min(len(rest), MaxSelectChoices)]})
	}
	if len(picked) > 0 {
		r.Selects = append(r.Selects, Select{Placeholder: "Take a card back", Action: act, Option: "drop", Choices: picked[:min(len(picked), MaxSelectChoices)]})
		r.Text = lines([]string{r.Text, "Your hand so far: " + strings.Join(names, ", ")})
	}
	if len(picked) >= least {
		r.Buttons = append(r.Buttons, Button{Label: fmt.Sprintf("Select these %d cards", len(picked)), Style: StyleSuccess,
			Action: Action{Command: "match hand", Options: opts("done", "true")}})
	}
	return nil
}

// matchHand runs the hand-building components: it picks option card, or
// takes back option drop, and answers with the view and the new picks; with
// done it selects the picked cards as the viewer's hand.
func matchHand(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	v, err := gildedhall.On(s).Match(ctx, inv.Game, inv.Opt("match"), inv.User)
	if err != nil {
		return nil, err
	}
	rs, err := s.Ruleset(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	picks, err := decodePicks(cardTable(rs.Cards), inv.Opt("picks"))
	if err != nil {
		return nil, err
	}
	var avail []string
	for _, m := range v.LegalMoves {
		if m.Kind == exoptosis.MoveSelect {
			avail = m.Cards
		}
	}
	if c := inv.Opt("card"); c != "" {
		if !slices.Contains(avail, c) {
			return nil, refusef("invalid_option", "%s is not a card you can select now.", c)
		}
		if !slices.Contains(picks, c) {
			picks = append(picks, c)
		}
	}
	if c := inv.Opt("drop"); c != "" {
		picks = slices.DeleteFunc(picks, func(p string) bool { return p == c })
	}
	if inv.Bool("done") {
		inv.Options["kind"], inv.Options["card"] = exoptosis.MoveSelect, strings.Join(picks, ",")
		return moveHandler(buildMove)(ctx, s, inv)
	}
	r := matchStatusReply(v)
	if err := controls(ctx, s, inv, v, picks, r); err != nil {
		return nil, err
	}
	return r, nil
}

func cardTable(cs []ruleset.Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// encodePicks writes the picked cards as a bit set over the ruleset's card
// table in base64url: 54 cards fit in 10 characters, so a hand of any size
// fits a component id. The table does not change during a match unless an
// amendment changes it, and the engine checks the hand anyway.
func encodePicks(table, picks []string) (string, error) {
	if len(picks) == 0 {
		return "", nil
	}
	bits := make([]byte, (len(table)+7)/8)
	for _, p := range picks {
		i := slices.Index(table, p)
		if i < 0 {
			return "", refusef("invalid_option", "%s is not a card of this game's table.", p)
		}
		bits[i/8] |= 1 << (i % 8)
	}
	return base64.RawURLEncoding.EncodeToString(bits), nil
}

// decodePicks reads what encodePicks wrote, in table order.
func decodePicks(table []string, s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	bits, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(bits) > (len(table)+7)/8 {
		return nil, refusef("invalid_option", "This hand menu is out of date; run /match status again.")
	}
	var out []string
	for i := range len(bits) * 8 {
		if bits[i/8]&(1<<(i%8)) == 0 {
			continue
		}
		if i >= len(table) {
			return nil, refusef("invalid_option", "This hand menu is out of date; run /match status again.")
		}
		out = append(out, table[i])
	}
	return out, nil
}

// matchMoves are the catalogue's match moves ("match-play"...), which the
// move commands run.
func matchMoves() []string {
	var out []string
	for _, k := range gildedhall.MoveKinds() {
		out = append(out, "match-"+k)
	}
	return out
}
