package game

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"croupier/internal/rules"
	"croupier/internal/ruleset"
)

// amended caches effective rulesets by base id and the hash of the
// amendments applied, so a command does not re-apply and re-validate every
// patch on each run. Rulesets are never modified once built.
var amended sync.Map // string -> *ruleset.Ruleset

// effectiveRuleset is the game's ruleset data: the base data its module
// runs on (Module.Data) with every amendment applied in order (RULINGS R1).
func (r *Registry) effectiveRuleset(m *Meta) (*ruleset.Ruleset, error) {
	data := r.dataOf(m.Ruleset)
	if len(m.Amendments) == 0 {
		return ruleset.Load(data)
	}
	h := sha256.New()
	for _, a := range m.Amendments {
		h.Write(a.Patch)
		h.Write([]byte{0})
	}
	key := data + "@" + hex.EncodeToString(h.Sum(nil))
	if rs, ok := amended.Load(key); ok {
		return rs.(*ruleset.Ruleset), nil
	}
	rs, err := ruleset.Load(data)
	if err != nil {
		return nil, err
	}
	for _, a := range m.Amendments {
		if rs, err = ruleset.Amend(rs, a.Patch); err != nil {
			return nil, fmt.Errorf("amendment v%d: %w", a.Version, err)
		}
	}
	amended.Store(key, rs)
	return rs, nil
}

// Amend is the payload of an operator's ruleset amendment, and why. Patch
// is a change to the game's ruleset data (RULINGS R4): a JSON array of
// operations on paths, e.g.
// [{"op":"replace","path":"/shop/random-card/price","value":4}] or
// [{"op":"replace","path":"/durations/tradeWindow","value":"72h"}], or an
// RFC 7396 merge patch such as {"durations":{"tradeWindow":"72h"}}, which
// is turned into the operations it amounts to against the rules as they are.
type Amend struct {
	Patch  json.RawMessage `json:"patch"`
	Reason string          `json:"reason"`
}

// AmendResult is the response of an amendment.
type AmendResult struct {
	Ruleset   string    `json:"ruleset"`
	Version   int       `json:"version"`
	Amendment Amendment `json:"amendment"`
}

// MaxPatch bounds one amendment's patch.
const MaxPatch = 16 << 10

// Amend changes the game's ruleset numbers (admins only): validated like a
// ruleset file, versioned, logged with its reason and a summary of what it
// changed. Adopted proposals carry out their amendments the same way
// (RULINGS G3).
func (s *Service) Amend(ctx context.Context, req Request, a Amend) (*Result, error) {
	if err := NeedReason(a.Reason); err != nil {
		return nil, err
	}
	a.Patch = bytes.TrimSpace(a.Patch)
	if len(a.Patch) == 0 || string(a.Patch) == "null" {
		return nil, rules.Refuse("invalid_amendment", "An amendment needs a patch: operations such as [{\"op\":\"replace\",\"path\":\"/shop/random-card/price\",\"value\":4}].")
	}
	if len(a.Patch) > MaxPatch {
		return nil, rules.Refuse("invalid_amendment", "The patch is %d bytes; at most %d are allowed.", len(a.Patch), MaxPatch)
	}
	return s.Run(ctx, Spec{
		Req: req, Command: "amend", Body: a,
		Apply: func(t *Tx) (any, error) {
			if err := t.Admin("amend the ruleset"); err != nil {
				return nil, err
			}
			c, err := prepareChange(t.Rules, a.Patch)
			if err != nil {
				return nil, err
			}
			am, err := t.amend(c, a.Reason, "admin")
			if err != nil {
				return nil, err
			}
			return AmendResult{Ruleset: t.Meta.Ruleset, Version: t.Rules.Version, Amendment: am}, nil
		},
	})
}

// prepareChange reads a change against rs, refusing a bad one with
// invalid_amendment and its problems.
func prepareChange(rs *ruleset.Ruleset, patch json.RawMessage) (ruleset.Change, error) {
	c, err := ruleset.Prepare(rs, patch)
	var inv *ruleset.InvalidError
	if errors.As(err, &inv) {
		return nil, rules.Refuse("invalid_amendment", "The amendment was refused: %s", problems(inv))
	}
	return c, err
}

// storedChange is the change a proposal recorded: operations, or (for a
// proposal made before changes were path-level) a merge patch, turned into
// operations against the rules as they are now.
func storedChange(rs *ruleset.Ruleset, amendment json.RawMessage) (ruleset.Change, error) {
	if a := bytes.TrimSpace(amendment); len(a) > 0 && a[0] == '[' {
		var c ruleset.Change
		if err := json.Unmarshal(a, &c); err != nil {
			return nil, fmt.Errorf("decoding the recorded change: %w", err)
		}
		return c, nil
	}
	return prepareChange(rs, amendment)
}

// amend applies a change to the game's ruleset in this command's commit,
// each operation to its own path (RULINGS R4): checked, recorded in META
// with its version and summary, and logged.
func (t *Tx) amend(c ruleset.Change, reason, source string) (Amendment, error) {
	rs, applied, moved, err := ruleset.Apply(t.Rules, c)
	if err != nil {
		var inv *ruleset.InvalidError
		if errors.As(err, &inv) {
			return Amendment{}, rules.Refuse("invalid_amendment", "The amendment was refused: %s", problems(inv))
		}
		return Amendment{}, err
	}
	patch, err := json.Marshal(applied)
	if err != nil {
		return Amendment{}, err
	}
	am := Amendment{Version: rs.Version, Patch: patch, Summary: ruleset.Summary(t.Rules, applied), BaseMoved: moved,
		Reason: reason, By: t.Entry.Actor, At: t.Now, Source: source}
	t.Meta.Amendments = append(t.Meta.Amendments, am)
	t.Meta.RulesetVersion = rs.Version
	t.Rules = rs
	t.metaDirty = true
	t.Emit("ruleset_amended", "", am)
	return am, nil
}

// ApplyChange applies a change a module's own vote adopted (a turns
// proposal's data change, RULINGS R4) to the game's ruleset in this
// commit, as an adopted governance proposal's amendment is: recorded in
// META with its version, reason and source, and logged.
func (t *Tx) ApplyChange(c ruleset.Change, reason, source string) (Amendment, error) {
	return t.amend(c, reason, source)
}

func problems(e *ruleset.InvalidError) string {
	msgs := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		msgs[i] = p.Error()
	}
	return strings.Join(msgs, "; ")
}

// Admin refuses a non-Admin actor; what says what they tried.
func (t *Tx) Admin(what string) error {
	if !slices.Contains(t.Meta.Admins, t.Entry.Actor) {
		return rules.Refuse("forbidden", "Only the game's admins can %s.", what)
	}
	return nil
}

// MaxReason bounds an operator's stated reason.
const MaxReason = 200

// NeedReason refuses an operator correction without a reason: every
// correction is in the log with why it was made.
func NeedReason(r string) error {
	if r == "" {
		return rules.Refuse("reason_required", "An operator correction needs a reason (for the log), e.g. \"Judge's ruling 12\".")
	}
	if len(r) > MaxReason {
		return rules.Refuse("invalid_request", "The reason is %d characters long; at most %d are allowed.", len(r), MaxReason)
	}
	return nil
}

// Ruleset returns the game's ruleset data as amended.
func (s *Service) Ruleset(ctx context.Context, game string) (*ruleset.Ruleset, error) {
	t, err := s.View(ctx, game)
	if err != nil {
		return nil, err
	}
	return t.Rules, nil
}
