package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"maps"
	"net/http"
	"strconv"

	"croupier/internal/rules"
)

// Problem is an RFC 9457 problem details body with Croupier's stable code.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
	// Extra carries the rule error's fields (e.g. possible_at) at top level.
	Extra map[string]any `json:"-"`
}

// MarshalJSON flattens Extra into the object, as RFC 9457 extensions are.
func (p Problem) MarshalJSON() ([]byte, error) {
	m := map[string]any{"type": p.Type, "title": p.Title, "status": p.Status, "detail": p.Detail, "code": p.Code}
	for k, v := range p.Extra {
		if _, taken := m[k]; !taken {
			m[k] = v
		}
	}
	return json.Marshal(m)
}

// statusOf maps stable codes to HTTP statuses; codes not listed are 422
// (a well-formed request the rules refuse: insufficient_funds,
// insufficient_items, trade_items_missing, no_such_pack, self_gift,
// self_trade). A code is 400 when the request is wrong whatever the game's
// state (a name no ruleset item has, a bad quantity, a missing reason), 409
// when the game's state rules it out for now (already gifted this period, a
// closed trade, the game is over). not_in_ruleset (RULINGS R3: the game's
// ruleset has no such command or view) is 422, not 409: no change of the
// game's state will ever allow it, as a game's ruleset never changes.
// Each area's codes are in its own map, beside its routes; they are listed
// here once.
var statusOf = statusTable(coreStatuses, exoptosisStatuses, governanceStatuses, pastStatuses)

// statusTable merges the areas' status maps (a later map's entry wins).
func statusTable(areas ...map[string]int) map[string]int {
	out := map[string]int{}
	for _, a := range areas {
		maps.Copy(out, a)
	}
	return out
}

// coreStatuses: the codes of the engine, the API itself and the economy.
var coreStatuses = map[string]int{
	"invalid_json":            http.StatusBadRequest,
	"invalid_request":         http.StatusBadRequest,
	"invalid_game_id":         http.StatusBadRequest,
	"invalid_actor":           http.StatusBadRequest,
	"invalid_player":          http.StatusBadRequest,
	"invalid_dice":            http.StatusBadRequest,
	"invalid_cursor":          http.StatusBadRequest,
	"invalid_limit":           http.StatusBadRequest,
	"period_not_ended":        http.StatusNotFound,
	"invalid_idempotency_key": http.StatusBadRequest,
	"invalid_clock":           http.StatusBadRequest,
	"missing_actor":           http.StatusBadRequest,
	"missing_api_key":         http.StatusUnauthorized,
	"invalid_api_key":         http.StatusUnauthorized,
	"forbidden":               http.StatusForbidden,
	"actor_out_of_scope":      http.StatusForbidden,
	"game_out_of_scope":       http.StatusForbidden,
	"platform_out_of_scope":   http.StatusForbidden,
	"not_found":               http.StatusNotFound,
	"unknown_command":         http.StatusNotFound,
	"game_not_found":          http.StatusNotFound,
	"player_not_found":        http.StatusNotFound,
	"unknown_player":          http.StatusNotFound,
	"ambiguous_player":        http.StatusBadRequest,
	"space_not_bound":         http.StatusNotFound,
	"invalid_space":           http.StatusBadRequest,
	"method_not_allowed":      http.StatusMethodNotAllowed,
	"body_too_large":          http.StatusRequestEntityTooLarge,
	"unsupported_media_type":  http.StatusUnsupportedMediaType,
	"game_exists":             http.StatusConflict,
	"already_a_player":        http.StatusConflict,
	"rejoin_too_soon":         http.StatusConflict,
	"not_a_player":            http.StatusConflict,
	"game_over":               http.StatusConflict,
	"idempotency_key_reused":  http.StatusUnprocessableEntity,
	"not_in_ruleset":          http.StatusUnprocessableEntity,
	"unknown_ruleset":         http.StatusBadRequest,
	"unknown_item":            http.StatusBadRequest,
	"unknown_card":            http.StatusBadRequest,
	"unknown_pack":            http.StatusBadRequest,
	"invalid_quantity":        http.StatusBadRequest,
	"invalid_trade":           http.StatusBadRequest,
	"invalid_amendment":       http.StatusBadRequest,
	"reason_required":         http.StatusBadRequest,
	"not_your_trade":          http.StatusForbidden,
	"trade_not_found":         http.StatusNotFound,
	"gathering_not_found":     http.StatusNotFound,
	"already_observed":        http.StatusConflict,
	"gathering_completed":     http.StatusConflict,
	"gathering_failed":        http.StatusConflict,
	"already_gifted":          http.StatusConflict,
	"trade_closed":            http.StatusConflict,
	"trade_expired":           http.StatusConflict,
	"insufficient_funds":      http.StatusUnprocessableEntity,
	"insufficient_items":      http.StatusUnprocessableEntity,
	"trade_items_missing":     http.StatusUnprocessableEntity,
	"no_such_pack":            http.StatusUnprocessableEntity,
	"self_gift":               http.StatusUnprocessableEntity,
	"self_trade":              http.StatusUnprocessableEntity,
	"not_reputable":           http.StatusForbidden,
	"cannot_preregister":      http.StatusConflict,
	"no_such_import":          http.StatusNotFound,
	"already_revoked":         http.StatusConflict,
	"import_spent":            http.StatusConflict,
	"busy":                    http.StatusServiceUnavailable,
	"storage_unavailable":     http.StatusServiceUnavailable,
	"internal":                http.StatusInternalServerError,
}

// Status returns the HTTP status of a stable error code.
func Status(code string) int {
	if s, ok := statusOf[code]; ok {
		return s
	}
	return http.StatusUnprocessableEntity
}

// writeProblem sends a problem+json response.
func writeProblem(w http.ResponseWriter, status int, code, detail string, extra map[string]any) {
	p := Problem{Type: "https://croupier.dev/problems/" + code, Title: http.StatusText(status), Status: status,
		Detail: detail, Code: code, Extra: extra}
	if status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(p)
}

func problem(w http.ResponseWriter, code, detail string) {
	writeProblem(w, Status(code), code, detail, nil)
}

// writeError turns any error from the service into a problem: rule refusals
// keep their code; a cancelled request is 499-like 503; everything else is
// logged and answered without internals.
func (a *API) writeError(w http.ResponseWriter, r *http.Request, err error) {
	var re *rules.Error
	switch {
	case errors.As(err, &re):
		writeProblem(w, Status(re.Code), re.Code, re.Message, re.Fields)
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		problem(w, "busy", "The request was cancelled or timed out before it completed; nothing was changed.")
	default:
		a.log.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
		problem(w, "storage_unavailable", "The game's storage could not complete the request; nothing was changed. Please try again.")
	}
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	b, err := json.Marshal(body)
	if err != nil {
		slog.Error("encoding response", "err", err)
		problem(w, "internal", "The response could not be encoded.")
		return
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)+1))
	w.WriteHeader(status)
	_, _ = w.Write(append(body, '\n'))
}
