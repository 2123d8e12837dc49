package game

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"time"

	"croupier/internal/fair"
	"croupier/internal/rules/players"
	"croupier/internal/store"
)

// Item keys inside a game's partition (DESIGN.md: State and storage).
const (
	metaSK       = "META"
	PlayerPrefix = "PLAYER#"
	logPrefix    = "LOG#"
	seedPrefix   = "SEED#"
)

func GamePK(id string) string         { return "GAME#" + id }
func MetaKey(id string) store.Key     { return store.Key{PK: GamePK(id), SK: metaSK} }
func PlayerKey(g, p string) store.Key { return store.Key{PK: GamePK(g), SK: PlayerPrefix + p} }
func seedKey(g, period string) store.Key {
	return store.Key{PK: GamePK(g), SK: seedPrefix + period}
}

// LogKey is the key of the log entry that doubles as the idempotency record
// of (actor, idempotency key): a repeat of the same command finds it.
func LogKey(g, commandID string) store.Key {
	return store.Key{PK: GamePK(g), SK: logPrefix + commandID}
}

// CommandID is the stable id of a command: a hash of who sent it and its
// idempotency key. It names the log entry and is the command field of every
// random draw the command makes, so a retried command draws the same values.
func CommandID(actor, key string) string {
	h := sha256.Sum256([]byte(actor + "\x00" + key))
	return hex.EncodeToString(h[:16])
}

// Meta is a game's own record.
type Meta struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Ruleset        string    `json:"ruleset"`
	RulesetVersion int       `json:"ruleset_version"`
	Admins         []string  `json:"admins"`
	CreatedAt      time.Time `json:"created_at"`
	CreatedBy      string    `json:"created_by"`
	// Period is the period the engine last opened; phase-end moves it on.
	Period string `json:"period"`
	// Closing names the period a period end is ending right now (set in
	// a commit before it reads the players, cleared by its own commit):
	// commands that must not straddle the end wait for it (fencePeriod).
	Closing string `json:"closing,omitempty"`
	// Season is the current season (RULINGS T2); it changes at week ends.
	Season  string    `json:"season"`
	Ended   bool      `json:"ended,omitempty"`
	Winner  string    `json:"winner,omitempty"`
	EndedAt time.Time `json:"ended_at,omitzero"`
	// Spaces are the chat spaces bound to the game ("discord:900"), kept by
	// bind: a chat command run from a cached binding checks it here, in
	// the META it reads anyway (boundcall.go).
	Spaces []string `json:"spaces,omitempty"`
	// Amendments are the operator corrections and adopted proposals that
	// changed this game's ruleset numbers, oldest first (RULINGS R1, G3).
	Amendments []Amendment `json:"amendments,omitempty"`
	// NamesIndexed: every member of the game is in the name index (NAME#
	// items, names.go) since its creation; a game created before the index
	// finds display names by reading its players.
	NamesIndexed bool `json:"names_indexed,omitempty"`
}

// Amendment is one versioned change to a game's ruleset data, over the
// ruleset as amended so far (RULINGS R4).
type Amendment struct {
	Version int `json:"version"`
	// Patch is the change as applied: a ruleset.Change, whose operations'
	// was are the values they replaced (amendments recorded before changes
	// were path-level hold an RFC 7396 merge patch object).
	Patch json.RawMessage `json:"patch"`
	// Summary says what changed, old and new values, e.g. "Random Card
	// costs 2 Vertebrae, was 5".
	Summary string `json:"summary,omitempty"`
	// BaseMoved says, for each operation whose base moved between the
	// proposal and its adoption, what it replaced instead (RULINGS R4: it is
	// applied as written to its own path).
	BaseMoved []string  `json:"base_moved,omitempty"`
	Reason    string    `json:"reason"`
	By        string    `json:"by"`
	At        time.Time `json:"at"`
	// Source is "admin" or what adopted it ("proposal:<id>").
	Source string `json:"source"`
}

// SeedRecord is one period's secret seed and its public commitment (RULINGS N2).
type SeedRecord struct {
	Period      string    `json:"period"`
	Commitment  string    `json:"commitment"`
	Secret      string    `json:"secret"`
	CommittedAt time.Time `json:"committed_at"`
	RevealedAt  time.Time `json:"revealed_at,omitzero"`
}

// Revealed reports whether the seed has been published.
func (s SeedRecord) Revealed() bool { return !s.RevealedAt.IsZero() }

// Entry is one game log entry: every state change is one (who, what, when,
// which random draws). It is also the command's idempotency record.
type Entry struct {
	ID          string          `json:"id"`
	Command     string          `json:"command"`
	CommandID   string          `json:"command_id"`
	Actor       string          `json:"actor"`
	Key         string          `json:"key,omitempty"`
	At          time.Time       `json:"at"`
	Period      string          `json:"period"`
	Events      []Event         `json:"events"`
	Draws       []fair.Record   `json:"draws,omitempty"`
	RequestHash string          `json:"request_hash,omitempty"`
	Response    json.RawMessage `json:"response,omitempty"`
	// Changes say how the commit changed each of the game's items it
	// wrote (changes.go): what a replay of the log applies.
	Changes []Change `json:"changes,omitempty"`
	// Spilled counts the companion items holding the changes of a commit
	// too large for its entry (changes.go); readers get them back.
	Spilled int `json:"spilled,omitempty"`
}

// CommandWords is the entry's command as a log shows it to people: a
// player's by its name, which they type (turns-propose); the scheduler's
// in words (turn begin, period end), as nobody types those.
func (e Entry) CommandWords() string {
	if e.Actor == SchedulerActor {
		return strings.ReplaceAll(e.Command, "-", " ")
	}
	return e.Command
}

// Event is one thing that happened, for the log and for announcements.
type Event struct {
	Type   string          `json:"type"`
	Player string          `json:"player,omitempty"`
	Data   json.RawMessage `json:"data,omitempty"`
}

func MakeEvent(typ, player string, data any) Event {
	e := Event{Type: typ, Player: player}
	if data != nil {
		e.Data, _ = json.Marshal(data) // our own types: cannot fail
	}
	return e
}

// Player is the stored membership record.
type Player = players.Player

var (
	gameIDRe   = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,62}$`)
	identityRe = regexp.MustCompile(`^[a-z][a-z0-9-]{1,15}:[A-Za-z0-9._@-]{1,64}$`)
)

// ValidGameID reports whether id can name a game: 1-63 lower-case letters,
// digits and dashes, starting with a letter or digit.
func ValidGameID(id string) bool { return gameIDRe.MatchString(id) }

// ValidIdentity reports whether id is a platform identity such as
// "discord:80351110224678912" or "slack:U024BE7LH".
func ValidIdentity(id string) bool { return identityRe.MatchString(id) }
