package httpapi

import (
	"context"
	"fmt"
	"net/http"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// governanceRoutes serves proposals, votes, the Judge and elections
// (RULINGS G1-G5).
//
// Votes are reactions on chat messages, so every record here names its
// message ({platform, channel, message}); a bridge that cannot let the
// server read reactions itself pushes them (POST .../reactions and
// .../message-events) and the tallies read them as of each deadline.
func (a *API) governanceRoutes(m *http.ServeMux) {
	m.Handle("POST /v1/games/{game}/proposals", a.authed(a.alias("proposal-submit")))
	m.Handle("GET /v1/games/{game}/proposals", a.read(a.listProposals))
	m.Handle("GET /v1/games/{game}/proposals/{proposal}", a.read(recordRead(a, "proposal", (*game.Service).Proposal)))
	m.Handle("POST /v1/games/{game}/proposals/{proposal}/withdraw", a.authed(pathCommand(a, http.StatusOK, "proposal", a.svc.WithdrawProposal)))
	m.Handle("POST /v1/games/{game}/justice", a.authed(a.alias("justice-request")))
	m.Handle("GET /v1/games/{game}/justice", a.read(a.listJustice))
	m.Handle("GET /v1/games/{game}/justice/{request}", a.read(recordRead(a, "request", (*game.Service).JusticeRequest)))
	m.Handle("POST /v1/games/{game}/justice/{request}/rulings", a.authed(a.rule))
	m.Handle("GET /v1/games/{game}/rulings", a.read(a.listRulings))
	m.Handle("POST /v1/games/{game}/rulings/{ruling}/overturn", a.authed(pathCommand(a, http.StatusOK, "ruling", a.svc.Overturn)))
	m.Handle("POST /v1/games/{game}/rulings/{ruling}/confidence", a.authed(a.openConfidence))
	m.Handle("GET /v1/games/{game}/judge", a.read(a.getJudge))
	m.Handle("POST /v1/games/{game}/judge/removal-assents", a.authed(a.alias("judge-removal-assent")))
	m.Handle("POST /v1/games/{game}/judge/resign", a.authed(a.alias("judge-resign")))
	m.Handle("POST /v1/games/{game}/candidacies", a.authed(a.alias("judge-candidacy")))
	m.Handle("GET /v1/games/{game}/candidacies", a.read(a.listCandidacies))
	m.Handle("POST /v1/games/{game}/reactions", a.authed(a.alias("push-reactions")))
	m.Handle("POST /v1/games/{game}/message-events", a.authed(a.alias("push-message-event")))
}

// governanceStatuses: the statuses of the governance codes: 400 for a request that is wrong
// whatever the game's state, 403 when the actor may not do it (not the
// author, not the Judge, the Judge acting on themself), 404 for an unknown
// record, 409 when the record's or the office's state rules it out now.
// not_reputable (403) and invalid_amendment (400) are shared with the
// economy; not_in_ruleset is 422 (the default).
var governanceStatuses = map[string]int{
	"invalid_class":            http.StatusBadRequest,
	"invalid_message":          http.StatusBadRequest,
	"invalid_reactions":        http.StatusBadRequest,
	"invalid_event":            http.StatusBadRequest,
	"invalid_kind":             http.StatusBadRequest,
	"empty_request":            http.StatusBadRequest,
	"truth_value_required":     http.StatusBadRequest,
	"answer_required":          http.StatusBadRequest,
	"not_author":               http.StatusForbidden,
	"not_the_judge":            http.StatusForbidden,
	"not_ruling_judge":         http.StatusForbidden,
	"judge_cannot_request":     http.StatusForbidden,
	"judge_cannot_assent":      http.StatusForbidden,
	"unknown_proposal":         http.StatusNotFound,
	"unknown_request":          http.StatusNotFound,
	"unknown_ruling":           http.StatusNotFound,
	"not_open":                 http.StatusConflict,
	"voting_ended":             http.StatusConflict,
	"already_ruled":            http.StatusConflict,
	"already_overturned":       http.StatusConflict,
	"overturn_window_closed":   http.StatusConflict,
	"confidence_already_held":  http.StatusConflict,
	"confidence_window_closed": http.StatusConflict,
	"no_judge":                 http.StatusConflict,
	"already_assented":         http.StatusConflict,
	"already_candidate":        http.StatusConflict,
	"message_already_used":     http.StatusConflict,
}

// maxRecordID bounds a proposal, request or ruling id in a path, as the
// service does: anything longer is no id the server made.
const maxRecordID = 64

func recordID(w http.ResponseWriter, r *http.Request, name string) (string, bool) {
	id := r.PathValue(name)
	if len(id) > maxRecordID {
		problem(w, "invalid_request", fmt.Sprintf("%q is not a %s id.", id, name))
		return "", false
	}
	return id, true
}

// recordRead is the handler of a read of the record the path value name
// identifies.
func recordRead[T any](a *API, name string, get func(s *game.Service, ctx context.Context, game, id string) (T, error)) readFunc {
	return func(w http.ResponseWriter, r *http.Request, s *game.Service) {
		id, ok := recordID(w, r, name)
		if !ok {
			return
		}
		v, err := get(s, r.Context(), r.PathValue("game"), id)
		a.reply(w, r, v, err)
	}
}

// proposalStatuses are the values the status filter of GET proposals accepts.
var proposalStatuses = []string{string(governance.StatusOpen), string(governance.StatusAdopted),
	string(governance.StatusFailed), string(governance.StatusWithdrawn)}

func (a *API) listProposals(w http.ResponseWriter, r *http.Request, s *game.Service) {
	status := r.URL.Query().Get("status")
	if !oneOf(w, "status", status, proposalStatuses) {
		return
	}
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := s.ProposalsPage(r.Context(), r.PathValue("game"), status, pr)
	a.replyPage(w, r, "proposals", v, next, err)
}

// requestStatuses are the values the status filter of GET justice accepts.
var requestStatuses = []string{governance.RequestOpen, governance.RequestAnswered}

func (a *API) listJustice(w http.ResponseWriter, r *http.Request, s *game.Service) {
	status := r.URL.Query().Get("status")
	if !oneOf(w, "status", status, requestStatuses) {
		return
	}
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := s.JusticeRequestsPage(r.Context(), r.PathValue("game"), status, pr)
	a.replyPage(w, r, "requests", v, next, err)
}

// ruleBody is the body of a ruling: the request is the path's.
type ruleBody struct {
	Answer string `json:"answer"`
}

func (a *API) rule(w http.ResponseWriter, r *http.Request) {
	var b ruleBody
	if err := decode(w, r, &b, false); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.command(w, r, http.StatusCreated, func(req game.Request) (*game.Result, error) {
		return a.svc.Rule(r.Context(), req, game.RuleOn{Request: r.PathValue("request"), Answer: b.Answer})
	})
}

func (a *API) listRulings(w http.ResponseWriter, r *http.Request, s *game.Service) {
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, next, err := s.RulingsPage(r.Context(), r.PathValue("game"), pr)
	a.replyPage(w, r, "rulings", v, next, err)
}

// confidenceBody is the body that opens a vote of confidence: the poll
// message; the ruling is the path's.
type confidenceBody struct {
	Poll game.MessageRef `json:"poll"`
}

func (a *API) openConfidence(w http.ResponseWriter, r *http.Request) {
	var b confidenceBody
	if err := decode(w, r, &b, false); err != nil {
		a.writeError(w, r, err)
		return
	}
	a.command(w, r, http.StatusCreated, func(req game.Request) (*game.Result, error) {
		return a.svc.OpenConfidence(r.Context(), req, game.OpenConfidence{Ruling: r.PathValue("ruling"), Poll: b.Poll})
	})
}

func (a *API) getJudge(w http.ResponseWriter, r *http.Request, s *game.Service) {
	v, err := s.Judge(r.Context(), r.PathValue("game"))
	a.reply(w, r, v, err)
}

func (a *API) listCandidacies(w http.ResponseWriter, r *http.Request, s *game.Service) {
	pr, ok := pageRequest(w, r)
	if !ok {
		return
	}
	v, err := s.Candidacies(r.Context(), r.PathValue("game"), r.URL.Query().Get("week"), pr)
	a.reply(w, r, v, err)
}
