package game

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"croupier/internal/order"
	"croupier/internal/rules"
	"croupier/internal/rules/governance"
	"croupier/internal/store"
)

// The Judge (seed 000 Judgement, RULINGS G4). State is split so commands by
// different people rarely write the same item: JUDGE holds the office (the
// Judge, since when, removal assents); each request for justice is its own
// RFJ#<id> item holding the request and the rulings on it; an open vote of
// confidence has a CONFIDENCE#<ruling id> timer item, due at the vote's end.
const (
	judgeSK          = "JUDGE"
	rfjPrefix        = "RFJ#"
	confidencePrefix = "CONFIDENCE#"
)

func judgeKey(g string) store.Key   { return store.Key{PK: GamePK(g), SK: judgeSK} }
func rfjKey(g, id string) store.Key { return store.Key{PK: GamePK(g), SK: rfjPrefix + id} }
func confidenceKey(g, id string) store.Key {
	return store.Key{PK: GamePK(g), SK: confidencePrefix + id}
}

// JudgeState is the office of Judge: who holds it ("" none), since when,
// and the players who have assented to removing them (two remove them).
type JudgeState struct {
	Judge          string    `json:"judge,omitempty"`
	Since          time.Time `json:"since,omitzero"`
	RemovalAssents []string  `json:"removal_assents"`
}

// JusticeRecord is a request for justice with every ruling made on it,
// oldest first. Ruling ids are "<request id>-<n>".
type JusticeRecord struct {
	Request governance.Request  `json:"request"`
	Rulings []governance.Ruling `json:"rulings"`
	// Disputed is the moment the request disputes (nil: the moment it was
	// made), and RulesInEffect, in the request's views only (never
	// stored), the ruleset in effect then (disputed.go).
	Disputed      *Disputed    `json:"disputed,omitempty"`
	RulesInEffect *RulesetThen `json:"rules_in_effect,omitempty"`
}

// Current is the ruling that answers the request now, if any.
func (r *JusticeRecord) Current() *governance.Ruling {
	for i := range r.Rulings {
		if r.Rulings[i].ID == r.Request.Ruling {
			return &r.Rulings[i]
		}
	}
	return nil
}

// ConfidenceTimer is the due item of a vote of confidence; the vote itself
// is on its ruling (governance.Ruling.Confidence).
type ConfidenceTimer struct {
	Ruling  string     `json:"ruling"`
	Request string     `json:"request"`
	Poll    MessageRef `json:"poll"`
	EndsAt  time.Time  `json:"ends_at"`
	Status  string     `json:"status"`
}

func (c *ConfidenceTimer) due() time.Time {
	if c.Status == governance.ConfidenceOpen {
		return c.EndsAt
	}
	return time.Time{}
}

func (t *Tx) judgeState() (JudgeState, error) {
	stored, err := record[JudgeState](t, judgeKey(t.Game))
	if err != nil {
		return JudgeState{}, err
	}
	var js JudgeState
	if stored != nil {
		js = *stored
	}
	if js.RemovalAssents == nil {
		js.RemovalAssents = []string{}
	}
	return js, nil
}

func (t *Tx) justice(id string) (*JusticeRecord, error) {
	r, err := record[JusticeRecord](t, rfjKey(t.Game, id))
	if err == nil && r == nil {
		err = rules.Refuse("unknown_request", "There is no request for justice %q in this game.", id)
	}
	return r, err
}

// court assembles the governance rules' view of the office and one request.
func court(js JudgeState, r *JusticeRecord) *governance.Court {
	c := &governance.Court{Judge: js.Judge, Since: js.Since, RemovalAssents: slices.Clone(js.RemovalAssents),
		Requests: []governance.Request{}, Rulings: []governance.Ruling{}}
	if r != nil {
		c.Requests = append(c.Requests, r.Request)
		c.Rulings = append(c.Rulings, r.Rulings...)
	}
	return c
}

func officeOf(c *governance.Court) JudgeState {
	js := JudgeState{Judge: c.Judge, Since: c.Since, RemovalAssents: slices.Clone(c.RemovalAssents)}
	if js.RemovalAssents == nil {
		js.RemovalAssents = []string{}
	}
	return js
}

func recordOf(c *governance.Court) *JusticeRecord {
	return &JusticeRecord{Request: c.Requests[0], Rulings: c.Rulings}
}

// requestOfRuling returns the request id inside a ruling id.
func requestOfRuling(ruling string) (string, error) {
	i := strings.LastIndexByte(ruling, '-')
	if i <= 0 || checkRecordID(ruling, "ruling") != nil {
		return "", rules.Refuse("unknown_ruling", "There is no ruling %q; ruling ids look like <request id>-1.", ruling)
	}
	if _, err := strconv.Atoi(ruling[i+1:]); err != nil {
		return "", rules.Refuse("unknown_ruling", "There is no ruling %q; ruling ids look like <request id>-1.", ruling)
	}
	return ruling[:i], nil
}

// RequestJustice is the payload of a request for justice: a statement (the
// Judge answers TRUE or FALSE) or a question (answered with text), tied to
// the chat message it was made in.
type RequestJustice struct {
	Kind    governance.RequestKind `json:"kind"`
	Text    string                 `json:"text"`
	Message MessageRef             `json:"message"`
	// At is the disputed moment: a time (RFC 3339), a log entry's id, or
	// before:<entry> / after:<entry>; "" the moment of the request.
	At string `json:"at,omitempty"`
}

// MaxJusticeText bounds a request's text and a ruling's answer.
const MaxJusticeText = 4000

// RequestJustice files a request for justice by the actor: anyone but the
// Judge (seed 000 says "a person": the requester need not be a player).
// Requests made while there is no Judge wait for the next one.
func (s *Service) RequestJustice(ctx context.Context, req Request, r RequestJustice) (*Result, error) {
	if len(r.Text) > MaxJusticeText {
		return nil, rules.Refuse("invalid_request", "The request is %d characters long; at most %d are allowed.", len(r.Text), MaxJusticeText)
	}
	if err := checkMessage(r.Message, "request for justice"); err != nil {
		return nil, err
	}
	disputed, err := s.DisputedMoment(ctx, req.Game, r.At)
	if err != nil {
		return nil, err
	}
	if disputed != nil {
		r.At = disputed.Moment
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "justice-request", Body: r,
		Keys: func(g string) []store.Key { return []store.Key{judgeKey(g), messageKey(g, r.Message)} },
		Apply: func(t *Tx) (any, error) {
			js, err := t.judgeState()
			if err != nil {
				return nil, err
			}
			c := court(js, nil)
			got, err := governance.RequestJustice(c, t.orderedID(), req.Actor, r.Kind, r.Text, r.Message, t.Now)
			if err != nil {
				return nil, err
			}
			if err := t.claimMessage(r.Message, UseRequest, got.ID, got.Text); err != nil {
				return nil, err
			}
			rec := &JusticeRecord{Request: got, Rulings: []governance.Ruling{}, Disputed: disputed}
			if err := t.Put(rfjKey(t.Game, got.ID), rec, time.Time{}); err != nil {
				return nil, err
			}
			t.checkJudge()
			t.Emit("justice_requested", req.Actor, rec.Request)
			return rec, nil
		},
	})
}

// checkJudge makes the commit fail if the office changed since it was read
// (a ruling by a Judge removed meanwhile must not stand).
func (t *Tx) checkJudge() {
	k := judgeKey(t.Game)
	t.Checks = append(t.Checks, store.Check{Key: k, Version: t.Loaded[k].Version})
}

// RuleOn is the payload of a ruling: the request answered and the answer
// (TRUE or FALSE for a statement, text for a question).
type RuleOn struct {
	Request string `json:"request"`
	Answer  string `json:"answer"`
}

// RulingView is a ruling with the request it answers.
type RulingView struct {
	governance.Ruling
	Kind      governance.RequestKind `json:"kind"`
	Text      string                 `json:"text"`
	Requester string                 `json:"requester"`
	Message   MessageRef             `json:"message"`
}

func rulingView(rec *JusticeRecord, r governance.Ruling) RulingView {
	return RulingView{Ruling: r, Kind: rec.Request.Kind, Text: rec.Request.Text, Requester: rec.Request.Author, Message: rec.Request.Message}
}

// Rule answers an open request for justice; only the Judge may.
func (s *Service) Rule(ctx context.Context, req Request, r RuleOn) (*Result, error) {
	if err := checkRecordID(r.Request, "request"); err != nil {
		return nil, err
	}
	if len(r.Answer) > MaxJusticeText {
		return nil, rules.Refuse("invalid_request", "The answer is %d characters long; at most %d are allowed.", len(r.Answer), MaxJusticeText)
	}
	return s.justiceCommand(ctx, req, "ruling", r, r.Request, nil, func(t *Tx, js JudgeState, rec *JusticeRecord) (any, error) {
		c := court(js, rec)
		got, err := governance.Rule(c, fmt.Sprintf("%s-%d", rec.Request.ID, len(rec.Rulings)+1), rec.Request.ID, req.Actor, r.Answer, t.Now)
		if err != nil {
			return nil, err
		}
		*rec = *recordOf(c)
		v := rulingView(rec, got)
		t.Emit("ruling_made", req.Actor, v)
		return v, nil
	})
}

// Overturn lets the Judge overturn their own ruling within 7 days (seed
// 000); the ruling loses all bearing and its request reopens for a new one.
func (s *Service) Overturn(ctx context.Context, req Request, ruling string) (*Result, error) {
	reqID, err := requestOfRuling(ruling)
	if err != nil {
		return nil, err
	}
	return s.justiceCommand(ctx, req, "ruling-overturn", map[string]string{"ruling": ruling}, reqID, nil, func(t *Tx, js JudgeState, rec *JusticeRecord) (any, error) {
		cfg, err := t.govConfig()
		if err != nil {
			return nil, err
		}
		c := court(js, rec)
		if err := governance.Overturn(c, ruling, req.Actor, t.Now, cfg); err != nil {
			return nil, err
		}
		*rec = *recordOf(c)
		v := rulingView(rec, *findRuling(rec, ruling))
		t.Emit("ruling_overturned", req.Actor, v)
		return v, nil
	})
}

func findRuling(rec *JusticeRecord, id string) *governance.Ruling {
	for i := range rec.Rulings {
		if rec.Rulings[i].ID == id {
			return &rec.Rulings[i]
		}
	}
	return nil
}

// OpenConfidence is the payload that opens a vote of confidence on a ruling,
// held on the reactions of the poll message (👍 affirm, 👎 overturn).
type OpenConfidence struct {
	Ruling string     `json:"ruling"`
	Poll   MessageRef `json:"poll"`
}

// OpenConfidence opens a 48-hour vote of confidence on a ruling, within 4
// days of it (RULINGS G4). Anyone may open one; a ruling gets one.
func (s *Service) OpenConfidence(ctx context.Context, req Request, o OpenConfidence) (*Result, error) {
	reqID, err := requestOfRuling(o.Ruling)
	if err != nil {
		return nil, err
	}
	if err := checkMessage(o.Poll, "confidence poll"); err != nil {
		return nil, err
	}
	return s.justiceCommand(ctx, req, "confidence-open", o, reqID, []store.Key{messageKey(req.Game, o.Poll)}, func(t *Tx, js JudgeState, rec *JusticeRecord) (any, error) {
		cfg, err := t.govConfig()
		if err != nil {
			return nil, err
		}
		c := court(js, rec)
		v, err := governance.OpenConfidence(c, o.Ruling, req.Actor, o.Poll, t.Now, cfg)
		if err != nil {
			return nil, err
		}
		if err := t.claimMessage(o.Poll, UseConfidence, o.Ruling, ""); err != nil {
			return nil, err
		}
		*rec = *recordOf(c)
		timer := ConfidenceTimer{Ruling: o.Ruling, Request: reqID, Poll: o.Poll, EndsAt: v.EndsAt, Status: v.Status}
		if err := t.Put(confidenceKey(t.Game, o.Ruling), timer, timer.due()); err != nil {
			return nil, err
		}
		view := rulingView(rec, *findRuling(rec, o.Ruling))
		t.Emit("confidence_opened", req.Actor, view)
		return view, nil
	})
}

// justiceCommand runs a command on one request for justice and the office;
// more are further keys it reads in the same request.
func (s *Service) justiceCommand(ctx context.Context, req Request, command string, body any, reqID string, more []store.Key,
	fn func(t *Tx, js JudgeState, rec *JusticeRecord) (any, error)) (*Result, error) {
	return s.Run(ctx, Spec{
		Req: req, Command: command, Body: body,
		Keys: func(g string) []store.Key { return append([]store.Key{judgeKey(g), rfjKey(g, reqID)}, more...) },
		Apply: func(t *Tx) (any, error) {
			js, err := t.judgeState()
			if err != nil {
				return nil, err
			}
			rec, err := t.justice(reqID)
			if err != nil {
				return nil, err
			}
			resp, err := fn(t, js, rec)
			if err != nil {
				return nil, err
			}
			if err := t.Put(rfjKey(t.Game, reqID), rec, time.Time{}); err != nil {
				return nil, err
			}
			t.checkJudge()
			return resp, nil
		},
	})
}

// AssentRemoval records the acting player's assent to removing the Judge;
// the ruleset's judgeRemovalAssents-th (second) distinct player's assent
// removes them (seed 000, RULINGS R4).
func (s *Service) AssentRemoval(ctx context.Context, req Request) (*Result, error) {
	return s.officeCommand(ctx, req, "judge-removal-assent", func(t *Tx, c *governance.Court) error {
		p, err := t.Member(req.Actor)
		if err != nil {
			return err
		}
		cfg, err := t.govConfig()
		if err != nil {
			return err
		}
		judge := c.Judge
		removed, err := governance.AssentRemoval(c, req.Actor, func(id string) bool { return p != nil && id == p.ID }, t.Now, cfg)
		if err != nil {
			return err
		}
		t.Emit("judge_removal_assented", req.Actor, map[string]any{"judge": judge, "assents": c.RemovalAssents})
		if removed {
			t.Emit("judge_removed", judge, map[string]any{"judge": judge})
		}
		return nil
	}, func(g string) []store.Key { return []store.Key{judgeKey(g), PlayerKey(g, req.Actor)} })
}

// Resign ends the acting Judge's term.
func (s *Service) Resign(ctx context.Context, req Request) (*Result, error) {
	return s.officeCommand(ctx, req, "judge-resign", func(t *Tx, c *governance.Court) error {
		if err := governance.Resign(c, req.Actor, t.Now); err != nil {
			return err
		}
		t.Emit("judge_resigned", req.Actor, map[string]any{"judge": req.Actor})
		return nil
	}, func(g string) []store.Key { return []store.Key{judgeKey(g)} })
}

func (s *Service) officeCommand(ctx context.Context, req Request, command string, fn func(t *Tx, c *governance.Court) error, keys func(string) []store.Key) (*Result, error) {
	return s.Run(ctx, Spec{
		Req: req, Command: command, Body: struct{}{}, Keys: keys,
		Apply: func(t *Tx) (any, error) {
			js, err := t.judgeState()
			if err != nil {
				return nil, err
			}
			c := court(js, nil)
			if err := fn(t, c); err != nil {
				return nil, err
			}
			js = officeOf(c)
			if err := t.Put(judgeKey(t.Game), js, time.Time{}); err != nil {
				return nil, err
			}
			return js, nil
		},
	})
}

// closeConfidenceItem is the "confidence" due work: the vote on the ruling
// named by the item's key is tallied as of its end.
func (s *Service) closeConfidenceItem(ctx context.Context, game, sk string) ([]string, error) {
	ruling := strings.TrimPrefix(sk, confidencePrefix)
	it, err := s.store.Get(ctx, confidenceKey(game, ruling))
	if err != nil {
		return nil, err
	}
	if !it.Exists() {
		return nil, nil
	}
	var timer ConfidenceTimer
	if err := json.Unmarshal(it.Data, &timer); err != nil {
		return nil, fmt.Errorf("decoding %s: %w", sk, err)
	}
	if timer.Status != governance.ConfidenceOpen || timer.EndsAt.After(s.clock.Now()) {
		return nil, nil
	}
	// Sealed first, so what is read is final (RULINGS T5).
	snaps, err := s.countedReactions(ctx, game, []MessageRef{timer.Poll}, timer.EndsAt)
	if err != nil {
		return nil, err
	}
	snap := snaps[0]
	isPlayer, err := s.membersAt(ctx, game, timer.EndsAt)
	if err != nil {
		return nil, err
	}
	ck, rk := confidenceKey(game, ruling), rfjKey(game, timer.Request)
	done, err := s.runScheduled(ctx, game, "confidence-tally", "confidence-tally:"+ruling, []store.Key{ck, rk}, func(t *Tx) (any, error) {
		var cur ConfidenceTimer
		// The votes were read as of timer.EndsAt: the vote must still be
		// open, end then, and be over by now (RULINGS T4).
		if err := json.Unmarshal(t.Loaded[ck].Data, &cur); err != nil || cur.Status != governance.ConfidenceOpen ||
			!cur.EndsAt.Equal(timer.EndsAt) || cur.EndsAt.After(t.Now) {
			return nil, errNothingDue
		}
		t.asOf(cur.EndsAt)
		rec, err := t.justice(cur.Request)
		if err != nil {
			return nil, err
		}
		c := court(JudgeState{}, rec)
		if _, err := governance.CloseConfidence(c, ruling, snap.Votes(), isPlayer, t.Now); err != nil {
			return nil, err
		}
		*rec = *recordOf(c)
		r := findRuling(rec, ruling)
		cur.Status = r.Confidence.Status
		if err := t.Put(ck, cur, cur.due()); err != nil {
			return nil, err
		}
		if err := t.Put(rk, rec, time.Time{}); err != nil {
			return nil, err
		}
		v := rulingView(rec, *r)
		t.Emit("confidence_vote_closed", "", v)
		switch cur.Status {
		case governance.ConfidenceOverturned:
			t.Emit("ruling_overturned", "", v)
		case governance.ConfidenceAffirmed:
			t.Emit("ruling_affirmed", "", v)
		}
		return v, nil
	})
	if err != nil || !done {
		return nil, err
	}
	return []string{game + "/" + ruling}, nil
}

// Judge returns the office of Judge.
func (s *Service) Judge(ctx context.Context, game string) (JudgeState, error) {
	t, err := s.ViewIn(ctx, viewJudge, game, judgeKey(game))
	if err != nil {
		return JudgeState{}, err
	}
	return t.judgeState()
}

// JusticeRequests lists the game's requests for justice, oldest first, with
// their rulings: status "open" (the Judge's queue), "answered", or "" all.
func (s *Service) JusticeRequests(ctx context.Context, game, status string) ([]JusticeRecord, error) {
	switch status {
	case "", governance.RequestOpen, governance.RequestAnswered:
	default:
		return nil, rules.Refuse("invalid_request", "Unknown request status %q: use open or answered.", status)
	}
	t, err := s.ViewIn(ctx, viewJustice, game)
	if err != nil {
		return nil, err
	}
	recs, err := scanRecords(ctx, s, game, rfjPrefix, func(r JusticeRecord) bool {
		return status == "" || r.Request.Status == status
	})
	for i := range recs {
		recs[i] = withRulesThen(recs[i], t.Meta.Amendments)
	}
	return recs, err
}

// JudgeQueue lists the requests waiting for a ruling, oldest first.
func (s *Service) JudgeQueue(ctx context.Context, game string) ([]JusticeRecord, error) {
	return s.JusticeRequests(ctx, game, governance.RequestOpen)
}

// JusticeRequest returns one request for justice with its rulings.
func (s *Service) JusticeRequest(ctx context.Context, game, id string) (JusticeRecord, error) {
	if err := checkRecordID(id, "request"); err != nil {
		return JusticeRecord{}, err
	}
	t, err := s.ViewIn(ctx, viewJustice, game, rfjKey(game, id))
	if err != nil {
		return JusticeRecord{}, err
	}
	r, err := t.justice(id)
	if err != nil {
		return JusticeRecord{}, err
	}
	return withRulesThen(*r, t.Meta.Amendments), nil
}

// Rulings lists every ruling made in the game, in the order made, each with
// its request; overturned ones say so (no_bearing).
func (s *Service) Rulings(ctx context.Context, game string) ([]RulingView, error) {
	recs, err := s.JusticeRequests(ctx, game, "")
	if err != nil {
		return nil, err
	}
	out := []RulingView{}
	for i := range recs {
		for _, r := range recs[i].Rulings {
			out = append(out, rulingView(&recs[i], r))
		}
	}
	order.Stable(out, func(a, b RulingView) int { return a.At.Compare(b.At) })
	return out, nil
}
