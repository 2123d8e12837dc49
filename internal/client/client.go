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
	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
)

// Header names of the bridge protocol (kept equal to httpapi's; the client
// does not import the server package).
const (
	HeaderActor       = "X-Croupier-Actor"
	HeaderIdempotency = "Idempotency-Key"
	HeaderReplayed    = "Idempotent-Replayed"
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

// CreateGame creates a game; the actor becomes its admin unless admins are named.
func (c *Client) CreateGame(ctx context.Context, idemKey string, body game.CreateGame) (game.GameView, Reply, error) {
	var v game.GameView
	r, err := c.Do(ctx, http.MethodPost, "/v1/games", body, idemKey, &v)
	return v, r, err
}

// Game describes a game.
func (c *Client) Game(ctx context.Context, g string) (game.GameView, Reply, error) {
	var v game.GameView
	r, err := c.Do(ctx, http.MethodGet, gamePath(g), nil, "", &v)
	return v, r, err
}

// Join makes the actor a player of g.
func (c *Client) Join(ctx context.Context, idemKey, g string, body game.JoinGame) (game.PlayerView, Reply, error) {
	var v game.PlayerView
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "join"), body, idemKey, &v)
	return v, r, err
}

// Leave ends the actor's membership of g.
func (c *Client) Leave(ctx context.Context, idemKey, g string) (game.LeaveResult, Reply, error) {
	var v game.LeaveResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "leave"), struct{}{}, idemKey, &v)
	return v, r, err
}

// Roll makes a logged, verifiable dice roll for the actor.
func (c *Client) Roll(ctx context.Context, idemKey, g string, body game.RollDice) (game.RollResult, Reply, error) {
	var v game.RollResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "rolls"), body, idemKey, &v)
	return v, r, err
}

// Grant gives an admin's grant: currency (negative takes), named or random
// cards and packs, with a reason.
func (c *Client) Grant(ctx context.Context, idemKey, g string, body game.Grant) (game.GrantResult, Reply, error) {
	var v game.GrantResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "grants"), body, idemKey, &v)
	return v, r, err
}

// Players lists the current players of g.
func (c *Client) Players(ctx context.Context, g string) ([]game.PlayerView, Reply, error) {
	var v struct {
		Players []game.PlayerView `json:"players"`
	}
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "players"), nil, "", &v)
	return v.Players, r, err
}

// Player returns one player's status; an empty id means the actor (/me).
func (c *Client) Player(ctx context.Context, g, id string) (game.PlayerView, Reply, error) {
	path := gamePath(g, "me")
	if id != "" {
		path = gamePath(g, "players", url.PathEscape(id))
	}
	var v game.PlayerView
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v, r, err
}

// Log reads one page of the game log, oldest first.
func (c *Client) Log(ctx context.Context, g, cursor string, limit int) (game.LogPage, Reply, error) {
	q := url.Values{}
	if cursor != "" {
		q.Set("cursor", cursor)
	}
	if limit > 0 {
		q.Set("limit", strconv.Itoa(limit))
	}
	path := gamePath(g, "log")
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var v game.LogPage
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v, r, err
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
	var v struct {
		Seeds []game.SeedView `json:"seeds"`
	}
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "seeds"), nil, "", &v)
	return v.Seeds, r, err
}

// Audit asks the server to recompute the draws of g (the server's own
// verdict; Verify recomputes them here instead).
func (c *Client) Audit(ctx context.Context, g string) (fair.Report, Reply, error) {
	var v fair.Report
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "audit"), nil, "", &v)
	return v, r, err
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
	var v ClockResult
	r, err := c.Do(ctx, http.MethodPost, "/v1/dev/clock", body, "", &v)
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
	var v Health
	r, err := c.Do(ctx, http.MethodGet, "/healthz", nil, "", &v)
	return v, r, err
}

// Shop lists what the Croupier sells in g, at g's (possibly amended) prices.
func (c *Client) Shop(ctx context.Context, g string) ([]game.ShopItemView, Reply, error) {
	var v struct {
		Items []game.ShopItemView `json:"items"`
	}
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "shop"), nil, "", &v)
	return v.Items, r, err
}

// Ruleset returns the rule numbers g runs on, amendments applied.
func (c *Client) Ruleset(ctx context.Context, g string) (ruleset.Ruleset, Reply, error) {
	var v ruleset.Ruleset
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "ruleset"), nil, "", &v)
	return v, r, err
}

// Purchase buys from the Croupier for the actor (RULINGS C6).
func (c *Client) Purchase(ctx context.Context, idemKey, g string, body game.Purchase) (game.PurchaseResult, Reply, error) {
	var v game.PurchaseResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "purchases"), body, idemKey, &v)
	return v, r, err
}

// OpenPack opens one of the actor's packs, by id or kind (RULINGS C5).
func (c *Client) OpenPack(ctx context.Context, idemKey, g string, body game.OpenPack) (economy.Opened, Reply, error) {
	var v economy.Opened
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "packs", "open"), body, idemKey, &v)
	return v, r, err
}

// Gift makes the actor's gift of this period (RULINGS C4).
func (c *Client) Gift(ctx context.Context, idemKey, g string, body game.Gift) (game.GiftResult, Reply, error) {
	var v game.GiftResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "gifts"), body, idemKey, &v)
	return v, r, err
}

// OfferTrade offers a trade to another player; the offer is the actor's consent.
func (c *Client) OfferTrade(ctx context.Context, idemKey, g string, body game.OfferTrade) (game.Trade, Reply, error) {
	var v game.Trade
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "trades"), body, idemKey, &v)
	return v, r, err
}

// Trades lists g's trades, oldest first; empty filter fields match all.
func (c *Client) Trades(ctx context.Context, g string, f game.TradeFilter) ([]game.Trade, Reply, error) {
	q := url.Values{}
	if f.Player != "" {
		q.Set("player", f.Player)
	}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	path := gamePath(g, "trades")
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	var v struct {
		Trades []game.Trade `json:"trades"`
	}
	r, err := c.Do(ctx, http.MethodGet, path, nil, "", &v)
	return v.Trades, r, err
}

// Trade describes one trade.
func (c *Client) Trade(ctx context.Context, g, id string) (game.Trade, Reply, error) {
	var v game.Trade
	r, err := c.Do(ctx, http.MethodGet, gamePath(g, "trades", url.PathEscape(id)), nil, "", &v)
	return v, r, err
}

// AcceptTrade is the receiver's consent: the trade executes at once or is refused.
func (c *Client) AcceptTrade(ctx context.Context, idemKey, g, id string) (game.Trade, Reply, error) {
	var v game.Trade
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "trades", url.PathEscape(id), "accept"), struct{}{}, idemKey, &v)
	return v, r, err
}

// WithdrawTrade closes an open trade: its maker withdraws it, its receiver declines it.
func (c *Client) WithdrawTrade(ctx context.Context, idemKey, g, id string) (game.Trade, Reply, error) {
	var v game.Trade
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "trades", url.PathEscape(id), "withdraw"), struct{}{}, idemKey, &v)
	return v, r, err
}

// Revoke takes items from a player; admins only, with a reason.
func (c *Client) Revoke(ctx context.Context, idemKey, g string, body game.Revoke) (game.RevokeResult, Reply, error) {
	var v game.RevokeResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "revocations"), body, idemKey, &v)
	return v, r, err
}

// Amend applies a JSON merge patch to g's ruleset; admins only, with a reason.
func (c *Client) Amend(ctx context.Context, idemKey, g string, body game.Amend) (game.AmendResult, Reply, error) {
	var v game.AmendResult
	r, err := c.Do(ctx, http.MethodPost, gamePath(g, "amendments"), body, idemKey, &v)
	return v, r, err
}
