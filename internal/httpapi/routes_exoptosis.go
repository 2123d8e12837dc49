package httpapi

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rulesets/gildedhall"
)

// exoptosisRoutes serves duels, battles and matches (RULINGS X1-X11).
//
// Duels and battles are how a match comes to be; once it runs, every move of
// every kind goes to one route (POST .../matches/{match}/moves), so a bridge
// maps each button or command to a body, not to a URL.
func (a *API) exoptosisRoutes(m *http.ServeMux) {
	m.Handle("POST /v1/games/{game}/duels", a.authed(a.alias("duel-request")))
	m.Handle("POST /v1/games/{game}/duels/{match}/answer", a.authed(a.answerDuel))
	m.Handle("POST /v1/games/{game}/battles/engage", a.authed(a.alias("battle-engage")))
	m.Handle("GET /v1/games/{game}/matches", a.read(a.listMatches))
	m.Handle("GET /v1/games/{game}/matches/{match}", a.read(viewerRead(a, gildedhall.On, (*gildedhall.Service).Match)))
	m.Handle("GET /v1/games/{game}/matches/{match}/replay", a.read(viewerRead(a, gildedhall.On, (*gildedhall.Service).Replay)))
	m.Handle("POST /v1/games/{game}/matches/{match}/moves", a.authed(a.move))
}

// exoptosisStatuses: the statuses of the Exoptosis codes. 409 when the match's state rules the
// move out for now (someone else's turn, a choice pending, the match not
// started or over); 403 when the actor has no part in the match; 422 (the
// default) for a move the rules refuse whatever the timing (illegal_play,
// must_play, must_add, card_not_in_hand, card_in_match, card_not_in_deck,
// selection_too_small, insufficient_chips, raise_too_small, invalid_target,
// invalid_move, too_few_cards, no_battles, not_a_duel ...).
var exoptosisStatuses = map[string]int{
	"match_not_found":    http.StatusNotFound,
	"not_invited":        http.StatusForbidden,
	"not_a_participant":  http.StatusForbidden,
	"match_not_started":  http.StatusConflict,
	"duel_closed":        http.StatusConflict,
	"already_answered":   http.StatusConflict,
	"already_engaged":    http.StatusConflict,
	"not_your_turn":      http.StatusConflict,
	"match_over":         http.StatusConflict,
	"forfeited":          http.StatusConflict,
	"choice_pending":     http.StatusConflict,
	"no_pending_choice":  http.StatusConflict,
	"must_answer":        http.StatusConflict,
	"betting_final":      http.StatusConflict,
	"already_consented":  http.StatusConflict,
	"nothing_to_match":   http.StatusConflict,
	"nothing_to_decline": http.StatusConflict,
}

// answerBody is the body of a duel answer. Accept is a pointer so a missing
// answer is refused rather than read as a decline (which cancels the duel).
type answerBody struct {
	Accept *bool `json:"accept"`
}

func (a *API) answerDuel(w http.ResponseWriter, r *http.Request) {
	var b answerBody
	if err := decode(w, r, &b, false); err != nil {
		a.writeError(w, r, err)
		return
	}
	if b.Accept == nil {
		problem(w, "invalid_request", `Say whether you accept the duel: {"accept": true} or {"accept": false}.`)
		return
	}
	a.command(w, r, http.StatusOK, func(req game.Request) (*game.Result, error) {
		return gildedhall.On(a.svc).AnswerDuel(r.Context(), req, gildedhall.AnswerDuel{Match: r.PathValue("match"), Accept: *b.Accept})
	})
}

// moveBody is a move's body: a MatchMove without the match, which is the path's.
type moveBody struct {
	Kind    string   `json:"kind"`
	Card    string   `json:"card,omitempty"`
	Cards   []string `json:"cards,omitempty"`
	Target  string   `json:"target,omitempty"`
	Targets []string `json:"targets,omitempty"`
	Amount  int      `json:"amount,omitempty"`
}

func (a *API) move(w http.ResponseWriter, r *http.Request) {
	var b moveBody
	if err := decode(w, r, &b, false); err != nil {
		a.writeError(w, r, err)
		return
	}
	mv := gildedhall.MatchMove{Match: r.PathValue("match"), Kind: b.Kind, Card: b.Card, Cards: b.Cards, Target: b.Target,
		Targets: b.Targets, Amount: b.Amount}
	a.command(w, r, http.StatusOK, func(req game.Request) (*game.Result, error) { return gildedhall.On(a.svc).Move(r.Context(), req, mv) })
}

// Values the filters of GET matches accept.
var (
	matchStatuses = []string{gildedhall.MatchRequested, gildedhall.MatchForming, gildedhall.MatchPlaying, gildedhall.MatchEnded, gildedhall.MatchCancelled}
	matchKinds    = []string{gildedhall.MatchDuel, gildedhall.MatchBattle}
)

func (a *API) listMatches(w http.ResponseWriter, r *http.Request, s *game.Service) {
	q := r.URL.Query()
	f := gildedhall.MatchFilter{Player: q.Get("player"), Status: q.Get("status"), Kind: q.Get("kind")}
	if f.Player != "" && !game.ValidIdentity(f.Player) {
		problem(w, "invalid_player", fmt.Sprintf("player must be a platform identity such as discord:1234, not %q.", f.Player))
		return
	}
	if !oneOf(w, "status", f.Status, matchStatuses) || !oneOf(w, "kind", f.Kind, matchKinds) {
		return
	}
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := gildedhall.On(s).MatchesPage(r.Context(), r.PathValue("game"), f, pr)
	a.replyPage(w, r, "matches", v, next, err)
}

// viewer is the optional actor of a read: it sees its own selection before
// the reveal and, on the match, its legal moves.
func viewer(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := strings.TrimSpace(r.Header.Get(HeaderActor))
	if id != "" && !game.ValidIdentity(id) {
		problem(w, "invalid_actor", fmt.Sprintf("%q is not a platform identity such as discord:1234.", id))
		return "", false
	}
	return id, true
}

// viewerRead is the handler of a read of the path's match as its viewer
// sees it: get of the ruleset's service on the one the request reads.
func viewerRead[R, T any](a *API, on func(*game.Service) R, get func(rs R, ctx context.Context, game, match, who string) (T, error)) readFunc {
	return func(w http.ResponseWriter, r *http.Request, s *game.Service) {
		who, ok := viewer(w, r)
		if !ok {
			return
		}
		v, err := get(on(s), r.Context(), r.PathValue("game"), r.PathValue("match"), who)
		a.reply(w, r, v, err)
	}
}
