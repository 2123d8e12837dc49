package game

import (
	"encoding/json"
	"fmt"
	"time"

	"croupier/internal/rules"
	"croupier/internal/store"
)

// RULINGS G6: one chat message is one thing, a proposal, a request for
// justice, a candidacy or a confidence poll, so one set of reactions never
// counts twice. Each such command claims its message with an item
// MSG#<platform>#<channel>#<message> created in the same commit with
// Expect 0 (it must not exist yet): of two concurrent submissions using one
// message exactly one commits; the other conflicts, retries, reads the
// claim and is refused with message_already_used. Message references never
// contain '#' (reactions.Check), so the key is unambiguous.

const messagePrefix = "MSG#"

func messageKey(g string, m MessageRef) store.Key {
	return store.Key{PK: GamePK(g), SK: messagePrefix + m.Platform + "#" + m.Channel + "#" + m.Message}
}

// Uses of a chat message.
const (
	UseProposal   = "proposal"
	UseRequest    = "request for justice"
	UseCandidacy  = "Judge candidacy"
	UseConfidence = "confidence poll"
)

// MessageUse is what a chat message is already used for.
type MessageUse struct {
	Message MessageRef `json:"message"`
	Use     string     `json:"use"` // UseProposal, UseRequest, UseCandidacy or UseConfidence
	// ID is the record: the proposal, request, candidacy or the ruling the
	// poll is on.
	ID    string    `json:"id"`
	Title string    `json:"title,omitempty"` // a proposal's title, a request's text, the candidate
	By    string    `json:"by"`
	At    time.Time `json:"at"`
}

// String says what the message is, for a refusal: proposal 01J… «More gifts».
func (u MessageUse) String() string {
	s := u.Use + " " + u.ID
	if u.Use == UseConfidence {
		s = "the confidence poll on ruling " + u.ID
	}
	if u.Title != "" {
		t := []rune(u.Title)
		if len(t) > 80 {
			t = append(t[:79], '…')
		}
		s += " «" + string(t) + "»"
	}
	return s
}

// claimMessage records that m is now use id (RULINGS G6), or refuses with
// message_already_used saying what m already is. The claim is written in
// this command's commit and must be new.
func (t *Tx) claimMessage(m MessageRef, use, id, title string) error {
	k := messageKey(t.Game, m)
	if _, ok := t.Loaded[k]; !ok {
		if err := t.Load(k); err != nil {
			return err
		}
	}
	if it := t.Loaded[k]; it.Exists() {
		var was MessageUse
		if err := json.Unmarshal(it.Data, &was); err != nil {
			return fmt.Errorf("decoding %s: %w", k, err)
		}
		return rules.Refuse("message_already_used", "That message is already %s. One message is one thing (a proposal, a request for justice, a candidacy or a confidence poll), so that its reactions count once: use a new message.", was).
			With("used_for", was)
	}
	return t.Put(k, MessageUse{Message: m, Use: use, ID: id, Title: title, By: t.Entry.Actor, At: t.Now}, time.Time{})
}
