// Package client is a small Go client of Croupier's JSON API (internal/httpapi).
// The `croupier play` and `croupier verify --url` commands use it; a chat
// bridge written in Go could too. It reuses the domain's view types
// (internal/game) so the client and the server cannot drift apart silently:
// a renamed field breaks the build, not a player's output.
package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"croupier/internal/fair"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
)

// Header names of the bridge protocol (kept equal to httpapi's; the client
// does not import the server package).
const (
	HeaderActor       = "X-Croupier-Actor"
	HeaderIdempotency = "Idempotency-Key"
	HeaderReplayed    = "Idempotent-Replayed"
	// HeaderSays is the answer's sentence (httpapi.HeaderSays).
	HeaderSays = "Croupier-Says"
)

// maxResponseBytes bounds what the client reads from one response, so a
// misdirected URL cannot make the CLI swallow a huge download.
const maxResponseBytes = 8 << 20

// Client talks to one Croupier server as one bridge (API key) on behalf of
// one player (Actor).
type Client struct {
	// BaseURL is the server's root, e.g. http://localhost:8080.
	BaseURL string
	// Key is the bearer API key.
	Key string
	// Actor is the acting player's platform identity (discord:1234); queries
	// that do not act for a player may leave it empty.
	Actor string
	// HTTP is the transport; nil means a client with a 30 s timeout.
	HTTP *http.Client
	// At, when set, is the moment every request asks for (?at=, RULINGS
	// T6): an RFC 3339 time, before:<entry> or after:<entry>. Reads answer
	// as the game was then (Reply.AsOf says the moment); the server refuses
	// a command, as the past is read-only.
	At string
}

// New returns a client for baseURL, checking the URL is usable.
func New(baseURL, key, actor string) (*Client, error) {
	u, err := url.Parse(strings.TrimSpace(baseURL))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("server URL %q is not an http(s) URL such as http://localhost:8080", baseURL)
	}
	return &Client{BaseURL: strings.TrimRight(u.String(), "/"), Key: key, Actor: actor}, nil
}

// Problem is an error answered by the server as application/problem+json
// (RFC 9457): Code is stable, Detail is a sentence for the player.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Code   string `json:"code"`
	// Extra holds any other members (e.g. possible_at).
	Extra map[string]any `json:"-"`
}

func (p *Problem) Error() string {
	if p.Detail == "" {
		return fmt.Sprintf("%s (HTTP %d)", p.Code, p.Status)
	}
	return fmt.Sprintf("%s (%s)", p.Detail, p.Code)
}

// Reply describes a successful response: its raw JSON body (what --json
// prints) and whether the server replayed an earlier response to the same
// idempotency key instead of running the command again.
type Reply struct {
	Status   int
	Body     json.RawMessage
	Replayed bool
	// Says is the sentence the server's declaration of the command says
	// of its answer (HeaderSays), "" when it sent none.
	Says string
	// AsOf is the moment a read at a moment (Client.At) shows; nil for a
	// read of now.
	AsOf *game.AsOf
}

// NewIdempotencyKey returns a fresh random key: one per CLI invocation, so a
// retried request changes nothing twice.
func NewIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return "cli-" + hex.EncodeToString(b[:])
}

// Do sends one request. body, when non-nil, is sent as JSON; idemKey, when
// non-empty, as the Idempotency-Key header. A 2xx answer is decoded into out
// (when non-nil); anything else becomes a *Problem (or a plain error when the
// server did not answer with JSON at all).
func (c *Client) Do(ctx context.Context, method, path string, body any, idemKey string, out any) (Reply, error) {
	var rdr io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return Reply{}, fmt.Errorf("encoding request: %w", err)
		}
		rdr = bytes.NewReader(b)
	}
	if c.At != "" {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		path += sep + "at=" + url.QueryEscape(c.At)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, rdr)
	if err != nil {
		return Reply{}, fmt.Errorf("building request %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json, application/problem+json")
	if c.Key != "" {
		req.Header.Set("Authorization", "Bearer "+c.Key)
	}
	if c.Actor != "" {
		req.Header.Set(HeaderActor, c.Actor)
	}
	if idemKey != "" {
		req.Header.Set(HeaderIdempotency, idemKey)
	}
	hc := c.HTTP
	if hc == nil {
		hc = &http.Client{Timeout: 30 * time.Second}
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Reply{}, fmt.Errorf("cannot reach the Croupier server at %s (is `croupier serve` running?): %w", c.BaseURL, unwrapURLError(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes))
	if err != nil {
		return Reply{}, fmt.Errorf("reading the answer to %s %s: %w", method, path, err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return Reply{}, decodeProblem(resp, raw)
	}
	rep := Reply{Status: resp.StatusCode, Body: bytes.TrimSpace(raw), Replayed: resp.Header.Get(HeaderReplayed) == "true"}
	if says, err := url.PathUnescape(resp.Header.Get(HeaderSays)); err == nil {
		rep.Says = says
	}
	if c.At != "" {
		var v struct {
			AsOf *game.AsOf `json:"as_of"`
		}
		if json.Unmarshal(raw, &v) == nil {
			rep.AsOf = v.AsOf
		}
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return rep, fmt.Errorf("the server's answer to %s %s is not the expected JSON: %w", method, path, err)
		}
	}
	return rep, nil
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

func decodeProblem(resp *http.Response, raw []byte) error {
	var p Problem
	var extra map[string]any
	if json.Unmarshal(raw, &p) == nil && p.Code != "" && json.Unmarshal(raw, &extra) == nil {
		for _, k := range []string{"type", "title", "status", "detail", "code"} {
			delete(extra, k)
		}
		if len(extra) > 0 {
			p.Extra = extra
		}
		if p.Status == 0 {
			p.Status = resp.StatusCode
		}
		return &p
	}
	snippet := strings.TrimSpace(string(raw))
	if len(snippet) > 200 {
		snippet = snippet[:200] + "..."
	}
	return fmt.Errorf("the server answered %s with a body that is not a Croupier problem: %q (is %s a Croupier server?)",
		resp.Status, snippet, resp.Request.URL.Host)
}

func gamePath(g string, rest ...string) string {
	p := "/v1/games/" + url.PathEscape(g)
	for _, r := range rest {
		p += "/" + r
	}
	return p
}

// withQuery appends the pairs of kv (key, value, key, value...) whose value
// is not empty to path as its query string.
func withQuery(path string, kv ...string) string {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	if len(q) == 0 {
		return path
	}
	return path + "?" + q.Encode()
}

// noBody is the body of a POST that says everything in its path: an empty
// JSON object, which the server's strict decoder accepts.
var noBody = struct{}{}

// call sends one request through Do and decodes the answer as a T. Every
// endpoint method is a call of it (or of get, post, getList), so the
// plumbing of a request lives in Do alone.
func call[T any](ctx context.Context, c *Client, method, path string, body any, idemKey string) (T, Reply, error) {
	var v T
	r, err := c.Do(ctx, method, path, body, idemKey, &v)
	return v, r, err
}

// get reads path as a T.
func get[T any](ctx context.Context, c *Client, path string) (T, Reply, error) {
	return call[T](ctx, c, http.MethodGet, path, nil, "")
}

// post sends body to path under idemKey and decodes the answer as a T.
func post[T any](ctx context.Context, c *Client, idemKey, path string, body any) (T, Reply, error) {
	return call[T](ctx, c, http.MethodPost, path, body, idemKey)
}

// getList reads path, whose answer is an object holding a list under key
// (the server wraps lists so they can grow fields), and returns the list.
func getList[T any](ctx context.Context, c *Client, path, key string) ([]T, Reply, error) {
	m, r, err := get[map[string]json.RawMessage](ctx, c, path)
	if err != nil || m[key] == nil {
		return nil, r, err
	}
	var v []T
	if err := json.Unmarshal(m[key], &v); err != nil {
		return nil, r, fmt.Errorf("the server's answer to %s %s is not the expected JSON: %w", http.MethodGet, path, err)
	}
	return v, r, nil
}

// getPaged reads every page of a list route: path's answer is an object
// holding one page of the list under key and, unless it is the last page,
// next_cursor (every list route pages, at most 500 items a page). It
// follows the cursor to the end and returns the whole list, with the
// reply of the last page; when there were several, its Body is the whole
// list under key, as one page would have held it.
func getPaged[T any](ctx context.Context, c *Client, path, key string) ([]T, Reply, error) {
	u, err := url.Parse(path)
	if err != nil {
		return nil, Reply{}, fmt.Errorf("list path %q: %w", path, err)
	}
	q := u.Query()
	q.Set("limit", strconv.Itoa(maxPage))
	var all []T
	seen := map[string]bool{}
	for pages := 1; ; pages++ {
		u.RawQuery = q.Encode()
		m, r, err := get[map[string]json.RawMessage](ctx, c, u.String())
		if err != nil {
			return nil, r, err
		}
		var v []T
		if raw := m[key]; raw != nil {
			if err := json.Unmarshal(raw, &v); err != nil {
				return nil, r, fmt.Errorf("the server's answer to %s %s is not the expected JSON: %w", http.MethodGet, path, err)
			}
		}
		all = append(all, v...)
		var next string
		if raw := m["next_cursor"]; raw != nil {
			if err := json.Unmarshal(raw, &next); err != nil {
				return nil, r, fmt.Errorf("the server's next_cursor for %s is not a string: %w", path, err)
			}
		}
		if next == "" {
			if all == nil {
				all = []T{}
			}
			if pages > 1 {
				whole := map[string]any{key: all}
				if r.AsOf != nil {
					whole["as_of"] = r.AsOf
				}
				if r.Body, err = json.Marshal(whole); err != nil {
					return nil, r, err
				}
			}
			return all, r, nil
		}
		if seen[next] {
			return nil, r, fmt.Errorf("the server returned the cursor %q twice for %s; stopping", next, path)
		}
		seen[next] = true
		q.Set("cursor", next)
	}
}

// maxPage is the largest page a list route serves (game.MaxPageLimit).
const maxPage = game.MaxPageLimit

// CreateGame creates a game; the actor becomes its admin unless admins are named.
func (c *Client) CreateGame(ctx context.Context, idemKey string, body game.CreateGame) (game.GameView, Reply, error) {
	return post[game.GameView](ctx, c, idemKey, "/v1/games", body)
}

// Game describes a game.
func (c *Client) Game(ctx context.Context, g string) (game.GameView, Reply, error) {
	return get[game.GameView](ctx, c, gamePath(g))
}

// Binding returns what the chat space of platform is bound to: the game and
// its ruleset.
func (c *Client) Binding(ctx context.Context, platform, space string) (game.SpaceView, Reply, error) {
	return get[game.SpaceView](ctx, c, "/v1/bindings/"+url.PathEscape(platform)+"/"+url.PathEscape(space))
}

// Join makes the actor a player of g.
func (c *Client) Join(ctx context.Context, idemKey, g string, body game.JoinGame) (game.PlayerView, Reply, error) {
	return post[game.PlayerView](ctx, c, idemKey, gamePath(g, "join"), body)
}

// Leave ends the actor's membership of g.
func (c *Client) Leave(ctx context.Context, idemKey, g string) (game.LeaveResult, Reply, error) {
	return post[game.LeaveResult](ctx, c, idemKey, gamePath(g, "leave"), noBody)
}

// Roll makes a logged, verifiable dice roll for the actor.
func (c *Client) Roll(ctx context.Context, idemKey, g string, body game.RollDice) (game.RollResult, Reply, error) {
	return post[game.RollResult](ctx, c, idemKey, gamePath(g, "rolls"), body)
}

// Grant gives an admin's grant: currency (negative takes), named or random
// cards and packs, with a reason.
func (c *Client) Grant(ctx context.Context, idemKey, g string, body gildedhall.Grant) (gildedhall.GrantResult, Reply, error) {
	return post[gildedhall.GrantResult](ctx, c, idemKey, gamePath(g, "grants"), body)
}

// Players lists the current players of g.
func (c *Client) Players(ctx context.Context, g string) ([]game.PlayerView, Reply, error) {
	return getPaged[game.PlayerView](ctx, c, gamePath(g, "players"), "players")
}

// Player returns one player's status; an empty id means the actor (/me).
func (c *Client) Player(ctx context.Context, g, id string) (game.PlayerView, Reply, error) {
	path := gamePath(g, "me")
	if id != "" {
		path = gamePath(g, "players", url.PathEscape(id))
	}
	return get[game.PlayerView](ctx, c, path)
}

// Log reads one page of the game log, oldest first.
func (c *Client) Log(ctx context.Context, g, cursor string, limit int) (game.LogPage, Reply, error) {
	lim := ""
	if limit > 0 {
		lim = strconv.Itoa(limit)
	}
	return get[game.LogPage](ctx, c, withQuery(gamePath(g, "log"), "cursor", cursor, "limit", lim))
}

// AllLog pages through the whole log of g.
func (c *Client) AllLog(ctx context.Context, g string) ([]game.Entry, error) {
	var all []game.Entry
	cursor := ""
	for {
		page, _, err := c.Log(ctx, g, cursor, 500)
		if err != nil {
			return nil, err
		}
		all = append(all, page.Entries...)
		if page.Next == "" {
			return all, nil
		}
		if page.Next == cursor {
			return nil, fmt.Errorf("the server returned the same log cursor twice (%q); stopping", cursor)
		}
		cursor = page.Next
	}
}

// Seeds lists the commitments of g, and the seeds already revealed.
func (c *Client) Seeds(ctx context.Context, g string) ([]game.SeedView, Reply, error) {
	return getPaged[game.SeedView](ctx, c, gamePath(g, "seeds"), "seeds")
}

// Audit asks the server to recompute the draws of g (the server's own
// verdict; Verify recomputes them here instead).
func (c *Client) Audit(ctx context.Context, g string) (fair.Report, Reply, error) {
	return get[fair.Report](ctx, c, gamePath(g, "audit"))
}

// Verify fetches the seeds and the whole log of g and recomputes every draw
// on this machine, trusting nothing the server computed (RULINGS N2).
func (c *Client) Verify(ctx context.Context, g string) (fair.Report, error) {
	seeds, _, err := c.Seeds(ctx, g)
	if err != nil {
		return fair.Report{}, err
	}
	entries, err := c.AllLog(ctx, g)
	if err != nil {
		return fair.Report{}, err
	}
	var recs []fair.Record
	for _, e := range entries {
		recs = append(recs, e.Draws...)
	}
	return game.VerifyDraws(seeds, recs)
}

// ClockRequest moves a server's manual clock: set it, or advance it by a Go
// duration such as "36h".
type ClockRequest struct {
	Set     *time.Time `json:"set,omitempty"`
	Advance string     `json:"advance,omitempty"`
}

// ClockResult is the server's answer: the new time and the scheduled work run.
type ClockResult struct {
	Now time.Time      `json:"now"`
	Ran game.DueReport `json:"ran"`
}

// Clock moves the manual clock of a server started with --clock manual.
func (c *Client) Clock(ctx context.Context, body ClockRequest) (ClockResult, Reply, error) {
	v, r, err := post[ClockResult](ctx, c, "", "/v1/dev/clock", body)
	var p *Problem
	if errors.As(err, &p) && p.Code == "not_found" {
		p.Detail = "This server's clock is real and cannot be moved; start it with `croupier serve --clock manual` to move time."
		p.Code = "clock_not_manual"
	}
	return v, r, err
}

// Health is the /healthz answer.
type Health struct {
	Status  string    `json:"status"`
	Version string    `json:"version"`
	Time    time.Time `json:"time"`
}

// Health checks the server is up.
func (c *Client) Health(ctx context.Context) (Health, Reply, error) {
	return get[Health](ctx, c, "/healthz")
}

// Shop lists what the Croupier sells in g, at g's (possibly amended) prices.
func (c *Client) Shop(ctx context.Context, g string) ([]gildedhall.ShopItemView, Reply, error) {
	return getList[gildedhall.ShopItemView](ctx, c, gamePath(g, "shop"), "items")
}

// Ruleset returns the rule numbers g runs on, amendments applied.
func (c *Client) Ruleset(ctx context.Context, g string) (ruleset.Ruleset, Reply, error) {
	return get[ruleset.Ruleset](ctx, c, gamePath(g, "ruleset"))
}

// Purchase buys from the Croupier for the actor (RULINGS C6).
func (c *Client) Purchase(ctx context.Context, idemKey, g string, body gildedhall.Purchase) (gildedhall.PurchaseResult, Reply, error) {
	return post[gildedhall.PurchaseResult](ctx, c, idemKey, gamePath(g, "purchases"), body)
}

// OpenPack opens one of the actor's packs, by id, kind or name (RULINGS C5).
func (c *Client) OpenPack(ctx context.Context, idemKey, g string, body gildedhall.OpenPack) (gildedhall.OpenResult, Reply, error) {
	return post[gildedhall.OpenResult](ctx, c, idemKey, gamePath(g, "packs", "open"), body)
}

// Gift makes the actor's gift of this period (RULINGS C4).
func (c *Client) Gift(ctx context.Context, idemKey, g string, body gildedhall.Gift) (gildedhall.GiftResult, Reply, error) {
	return post[gildedhall.GiftResult](ctx, c, idemKey, gamePath(g, "gifts"), body)
}

// OfferTrade offers a trade to another player; the offer is the actor's consent.
func (c *Client) OfferTrade(ctx context.Context, idemKey, g string, body trades.OfferTrade) (trades.Trade, Reply, error) {
	return post[trades.Trade](ctx, c, idemKey, gamePath(g, "trades"), body)
}

// Trades lists g's trades, oldest first; empty filter fields match all.
func (c *Client) Trades(ctx context.Context, g string, f trades.TradeFilter) ([]trades.Trade, Reply, error) {
	return getPaged[trades.Trade](ctx, c, withQuery(gamePath(g, "trades"), "player", f.Player, "status", f.Status), "trades")
}

// Trade describes one trade.
func (c *Client) Trade(ctx context.Context, g, id string) (trades.Trade, Reply, error) {
	return get[trades.Trade](ctx, c, gamePath(g, "trades", url.PathEscape(id)))
}

// AcceptTrade is the receiver's consent: the trade executes at once or is refused.
func (c *Client) AcceptTrade(ctx context.Context, idemKey, g, id string) (trades.Trade, Reply, error) {
	return post[trades.Trade](ctx, c, idemKey, gamePath(g, "trades", url.PathEscape(id), "accept"), noBody)
}

// WithdrawTrade closes an open trade: its maker withdraws it, its receiver declines it.
func (c *Client) WithdrawTrade(ctx context.Context, idemKey, g, id string) (trades.Trade, Reply, error) {
	return post[trades.Trade](ctx, c, idemKey, gamePath(g, "trades", url.PathEscape(id), "withdraw"), noBody)
}

// Revoke takes items from a player; admins only, with a reason.
func (c *Client) Revoke(ctx context.Context, idemKey, g string, body gildedhall.Revoke) (gildedhall.RevokeResult, Reply, error) {
	return post[gildedhall.RevokeResult](ctx, c, idemKey, gamePath(g, "revocations"), body)
}

// Amend applies a change to g's ruleset (operations on paths, or a merge
// patch turned into them; RULINGS R4); admins only, with a reason.
func (c *Client) Amend(ctx context.Context, idemKey, g string, body game.Amend) (game.AmendResult, Reply, error) {
	return post[game.AmendResult](ctx, c, idemKey, gamePath(g, "amendments"), body)
}

// Commands lists the commands of g's ruleset the API runs by name, with
// their payload fields.
func (c *Client) Commands(ctx context.Context, g string) (game.CommandList, Reply, error) {
	return get[game.CommandList](ctx, c, gamePath(g, "commands"))
}

// Command runs the catalogue's command name in g with payload as its body
// (POST /v1/games/{g}/commands/{name}) and returns the answer as JSON: a
// client that knows the command only from Commands cannot know its type.
func (c *Client) Command(ctx context.Context, idemKey, g, name string, payload any) (json.RawMessage, Reply, error) {
	return post[json.RawMessage](ctx, c, idemKey, gamePath(g, "commands", url.PathEscape(name)), payload)
}

// Obelisk returns an obelisk game's Obelisk (distance, Cuts, Grebes, the
// week's observation, the ritual types).
func (c *Client) Obelisk(ctx context.Context, g string) (obelisk.ObeliskView, Reply, error) {
	return get[obelisk.ObeliskView](ctx, c, gamePath(g, "obelisk"))
}

// Gatherings lists an obelisk game's Gatherings, newest first.
func (c *Client) Gatherings(ctx context.Context, g string) ([]obelisk.GatheringView, Reply, error) {
	return getList[obelisk.GatheringView](ctx, c, gamePath(g, "gatherings"), "gatherings")
}
