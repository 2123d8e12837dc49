package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"croupier/internal/chat"
	"croupier/internal/chat/discord"
	"croupier/internal/chat/discord/discordtest"
	slackchat "croupier/internal/chat/slack"
	"croupier/internal/game"
	"croupier/internal/institutions/trades"
	"croupier/internal/rulesets"
	"croupier/internal/rulesets/gildedhall"
	"croupier/internal/rulesets/obelisk"
	"croupier/internal/rulesets/turns"
)

// Issue 24, acceptance 1: every command's answer is sentences, the one its
// declaration says (game.Command.Says), on every edge. The table below
// runs the commands of the registry's rulesets through `croupier play`,
// Discord and Slack, each edge on its own game of the ruleset (the same
// players by name), in order, with what a command needs set up by the
// steps before it (a case to recuse from and rule on, an appeal to vote
// on in its turn, a round won to start the next, a Judge elected, a duel
// under way, a banishment adopted). Every command of every ruleset has a
// step, and each step must run for real (its command logged) on every
// edge: a refusal in chat is an answer too. No answer shows a platform id:
// every player of the table has a name.

// answerStep is one command of the table, run on every edge.
type answerStep struct {
	ruleset string
	command string // the catalogue's name
	actor   int    // the index of the player (answerPlayers) who runs it
	// opts are the command's arguments by field, in order: --FIELD VALUE
	// for the CLI, options for chat ("{case}" is the game's latest case).
	opts [][2]string
	// chat is the chat command that runs it, when it is not the first
	// one that runs the catalogue command (a confirmation).
	chat string
	// cli is the CLI's arguments after the verb, when its verb is
	// hand-written with arguments of its own.
	cli []string
	// chatOpts are chat's options, when they are not opts.
	chatOpts [][2]string
	// cliOnly: no chat command runs it (a platform's report).
	cliOnly bool
	// want are what the answer says on every edge (names, numbers).
	want []string
	// advance moves the server's clock first (to the turn an appeal is
	// voted in).
	advance time.Duration
	// untilVoted sets the server's clock first to this long after the end
	// of the vote on the game's latest proposal.
	untilVoted time.Duration
	// viaCLI: the step sets up what the next ones need (cards granted, a
	// chat platform's reaction report) through the CLI on every edge's
	// game, as that edge's player; it stands for no edge's answer.
	viaCLI bool
}

var answerPlayers = []string{"Ada", "Grace", "Cy", "Dee"}

// turnsSteps are every command of the turns ruleset, and the common ones.
var turnsSteps = []answerStep{
	{ruleset: turns.ID, command: "join", actor: 0, opts: [][2]string{{"name", "Ada"}}, want: []string{"Ada"}},
	{ruleset: turns.ID, command: "join", actor: 1, opts: [][2]string{{"name", "Grace"}}, want: []string{"Grace"}},
	{ruleset: turns.ID, command: "join", actor: 2, opts: [][2]string{{"name", "Cy"}}, want: []string{"Cy"}},
	{ruleset: turns.ID, command: "roll", actor: 0, opts: [][2]string{{"dice", "2d6"}}, cli: []string{"2d6"}, want: []string{"2d6"}},
	{ruleset: turns.ID, command: "turns-active", actor: 2, opts: [][2]string{{"active", "false"}}, want: []string{"Cy is inactive now", "0 points"}},
	{ruleset: turns.ID, command: "turns-active", actor: 2, opts: [][2]string{{"active", "true"}}, want: []string{"Cy is active now"}},
	{ruleset: turns.ID, command: "turns-propose", actor: 0, opts: [][2]string{{"op", "amend"}, {"rule", "210"}, {"text", "Rule 210, amended."}},
		want: []string{"Ada proposed P1: amend rule 210 to \"Rule 210, amended.\"", "turn 1-1", "CDT"}},
	{ruleset: turns.ID, command: "turns-vote", actor: 1, opts: [][2]string{{"proposal", "P1"}, {"vote", "for"}}, want: []string{"Grace voted for proposal P1", "CDT"}},
	{ruleset: turns.ID, command: "pool-enter", actor: 1, want: []string{"Grace entered the Judicial Pool"}},
	{ruleset: turns.ID, command: "pool-enter", actor: 2, want: []string{"Cy entered the Judicial Pool"}},
	{ruleset: turns.ID, command: "pool-leave", actor: 2, want: []string{"Cy left the Judicial Pool", "not in the Judicial Pool"}},
	{ruleset: turns.ID, command: "judgment-request", actor: 0, opts: [][2]string{{"statement", "Is rule 210 fair?"}},
		want: []string{"Ada filed a Request for Judgment, case", "its Judge is Grace", "CDT"}},
	{ruleset: turns.ID, command: "judge-recuse", actor: 1, opts: [][2]string{{"case", "{case}"}}, want: []string{"Grace recused from case", "the administrator judges it"}},
	{ruleset: turns.ID, command: "judge-rule", actor: 0, opts: [][2]string{{"case", "{case}"}, {"ruling", "FALSE"}, {"reasons", "It is."}},
		want: []string{"The administrator ruled case", "FALSE"}},
	{ruleset: turns.ID, command: "ruling-appeal", actor: 2, opts: [][2]string{{"case", "{case}"}, {"ruling", "TRUE"}, {"reasons", "It is not."}},
		want: []string{"Cy appealed the ruling of case", "turn 1-1", "CDT"}},
	// Turn 1-1 begins on Monday 9 March at 22:00 CDT: the appeal is voted
	// on then.
	{ruleset: turns.ID, command: "appeal-vote", actor: 0, opts: [][2]string{{"case", "{case}"}, {"vote", "for"}}, advance: 112 * time.Hour,
		want: []string{"Ada voted for the appeal", "CDT"}},
	// Issue 25: a request names its disputed moment (here just after the
	// game's first log entry), on every edge.
	{ruleset: turns.ID, command: "judgment-request", actor: 1, opts: [][2]string{{"statement", "Ada's vote was late."}, {"at", "after:{entry}"}},
		want: []string{"Grace filed a Request for Judgment", "The Judge considers the rules in effect at", "(after:"}},
	{ruleset: turns.ID, command: "judgment-request", actor: 2, opts: [][2]string{{"statement", "These rules hold a paradox."}, {"paradox", "true"}},
		want: []string{"Cy filed a Request for Judgment stating a paradox", "the administrator judges it"}},
	// A paradox ruled TRUE wins the round for its petitioner (U11).
	{ruleset: turns.ID, command: "judge-rule", actor: 0, opts: [][2]string{{"case", "{case}"}, {"ruling", "TRUE"}, {"reasons", "It does."}},
		want: []string{"The administrator ruled case", "TRUE"}},
	{ruleset: turns.ID, command: "round-start", actor: 0, want: []string{"Round 2 has begun"}},
	{ruleset: turns.ID, command: "amend", actor: 0, opts: [][2]string{{"patch", `{"turns":{"winPoints":150}}`}, {"reason", "a shorter game"}}, want: []string{"a shorter game"}},
	{ruleset: turns.ID, command: "push-reactions", actor: 0, cliOnly: true,
		opts: [][2]string{{"message", `{"platform":"discord","channel":"700","message":"9001"}`}, {"up", "discord:11"}}, want: []string{"1 👍"}},
	{ruleset: turns.ID, command: "push-message-event", actor: 0, cliOnly: true,
		opts: [][2]string{{"message", `{"platform":"discord","channel":"700","message":"9001"}`}, {"event", "edited"}}, want: []string{"edited"}},
	{ruleset: turns.ID, command: "leave", actor: 2, chat: "leave confirm", want: []string{"Cy"}},
}

// obeliskSteps are every command of the Obelisk.
var obeliskSteps = []answerStep{
	{ruleset: obelisk.ID, command: "join", actor: 0, opts: [][2]string{{"name", "Ada"}}, want: []string{"Ada"}},
	{ruleset: obelisk.ID, command: "join", actor: 1, opts: [][2]string{{"name", "Grace"}}, want: []string{"Grace"}},
	{ruleset: obelisk.ID, command: "join", actor: 2, opts: [][2]string{{"name", "Cy"}}, want: []string{"Cy"}},
	{ruleset: obelisk.ID, command: "amend", actor: 0, opts: [][2]string{{"patch", ritualPatch}, {"reason", "a ritual"}}, want: []string{"a ritual"}},
	{ruleset: obelisk.ID, command: "components-grant", actor: 0, opts: [][2]string{{"player", "{player:1}"}, {"resolve", "3"}, {"herbs", "3"}, {"crystals", "2"}, {"reason", "a correction"}},
		cli: []string{"Grace", "--resolve", "3", "--herbs", "3", "--crystals", "2", "--reason", "a correction"}, want: []string{"Ada granted Grace", "a correction"}},
	{ruleset: obelisk.ID, command: "components-grant", actor: 0, opts: [][2]string{{"player", "{player:0}"}, {"herbs", "1"}, {"reason", "for the ritual"}},
		cli: []string{"Ada", "--herbs", "1", "--reason", "for the ritual"}, want: []string{"Ada granted Ada"}},
	{ruleset: obelisk.ID, command: "components-revoke", actor: 0, opts: [][2]string{{"player", "{player:1}"}, {"crystals", "1"}, {"reason", "one too many"}},
		cli: []string{"Grace", "--crystals", "1", "--reason", "one too many"}, want: []string{"Ada revoked", "Grace"}},
	{ruleset: obelisk.ID, command: "task", actor: 1, opts: [][2]string{{"task", "herbalism"}}, want: []string{"Grace"}},
	{ruleset: obelisk.ID, command: "observe", actor: 2, want: []string{"Cy"}},
	{ruleset: obelisk.ID, command: "gathering-start", actor: 1, opts: [][2]string{{"ritual_type", "cut-the-obelisk"}},
		cli: []string{"--ritual_type=cut-the-obelisk", "--message=rituals-1"}, want: []string{"Grace", "started a Gathering of Cut the Obelisk"}},
	{ruleset: obelisk.ID, command: "gathering-contribute", actor: 1, opts: [][2]string{{"gathering", "{gathering}"}, {"component", "herbs"}}, want: []string{"Grace contributed 1🌿 to the Gathering"}},
	{ruleset: obelisk.ID, command: "gathering-withdraw", actor: 1, opts: [][2]string{{"gathering", "{gathering}"}, {"component", "herbs"}}, want: []string{"Grace withdrew 1🌿 from the Gathering"}},
	{ruleset: obelisk.ID, command: "gathering-contribute", actor: 1, opts: [][2]string{{"gathering", "{gathering}"}, {"component", "herbs"}}},
	{ruleset: obelisk.ID, command: "gathering-contribute", actor: 0, opts: [][2]string{{"gathering", "{gathering}"}, {"component", "herbs"}}, want: []string{"Ada contributed 1🌿"}},
	{ruleset: obelisk.ID, command: "gathering-contribute", actor: 1, opts: [][2]string{{"gathering", "{gathering}"}, {"component", "resolve"}}, want: []string{"the cost is covered"}},
	{ruleset: obelisk.ID, command: "gathering-complete", actor: 1, opts: [][2]string{{"gathering", "{gathering}"}}, want: []string{"Grace completed the Gathering of Cut the Obelisk", "1 Cut (now 1)"}},
	// A banishment of Grace for an hour, adopted by Ada's and Cy's 👍,
	// ends at her word once the hour has passed (O11).
	{ruleset: obelisk.ID, command: "proposal-submit", actor: 0, chat: "banishment propose",
		opts:     [][2]string{{"message", "{msg:5}"}, {"kind", "banishment"}, {"params", `{"player":"{id:1}","duration":"1h"}`}},
		chatOpts: [][2]string{{"player", "{player:1}"}, {"duration", "1h"}, {"message", "{msg:5}"}}, want: []string{"Ada", "Grace"}},
	{ruleset: obelisk.ID, command: "push-reactions", actor: 0, viaCLI: true, opts: [][2]string{{"message", "{msgref:5}"}, {"up", "{id:0},{id:2}"}}, want: []string{"2 👍"}},
	{ruleset: obelisk.ID, command: "banishment-end", actor: 1, chat: "banishment end", untilVoted: time.Hour + time.Minute, want: []string{"Grace"}},
	{ruleset: obelisk.ID, command: "leave", actor: 2, chat: "leave confirm", want: []string{"Cy left the game"}},
}

var gildedHallSteps = []answerStep{
	{ruleset: gildedhall.ID, command: "join", actor: 0, opts: [][2]string{{"name", "Ada"}}, want: []string{"Ada"}},
	{ruleset: gildedhall.ID, command: "join", actor: 1, opts: [][2]string{{"name", "Grace"}}, want: []string{"Grace"}},
	{ruleset: gildedhall.ID, command: "join", actor: 2, opts: [][2]string{{"name", "Cy"}}, want: []string{"Cy"}},
	{ruleset: gildedhall.ID, command: "join", actor: 3, opts: [][2]string{{"name", "Dee"}}, want: []string{"Dee"}},
	{ruleset: gildedhall.ID, command: "grant", actor: 0, cli: []string{"Grace", "--vertebrae", "60", "--chips", "1", "--reason", "a start"},
		chatOpts: [][2]string{{"player", "{player:1}"}, {"reason", "a start"}, {"vertebrae", "60"}, {"chips", "1"}}, want: []string{"Grace", "a start"}},
	{ruleset: gildedhall.ID, command: "purchase", actor: 1, opts: [][2]string{{"item", "random-card"}, {"quantity", "2"}}, chat: "buy confirm", want: []string{"Random Card"}},
	{ruleset: gildedhall.ID, command: "purchase", actor: 1, opts: [][2]string{{"item", "deck-pack"}}, chat: "buy confirm", want: []string{"Deck Pack"}},
	{ruleset: gildedhall.ID, command: "open", actor: 1, cli: []string{"deck-pack"}, chatOpts: [][2]string{{"pack", "deck-pack"}}, want: []string{"Deck Pack"}},
	{ruleset: gildedhall.ID, command: "gift", actor: 1, cli: []string{"Cy"}, chatOpts: [][2]string{{"player", "{player:2}"}}, want: []string{"Grace", "Cy"}},
	{ruleset: gildedhall.ID, command: "revoke", actor: 0, cli: []string{"Grace", "--vertebrae", "1", "--reason", "a correction"},
		chatOpts: [][2]string{{"player", "{player:1}"}, {"reason", "a correction"}, {"vertebrae", "1"}}, want: []string{"Grace", "a correction"}},
	{ruleset: gildedhall.ID, command: "trade-offer", actor: 1, opts: [][2]string{{"to", "{id:2}"}, {"give", `{"vertebrae":2}`}, {"take", `{}`}},
		chatOpts: [][2]string{{"player", "{player:2}"}, {"give_vertebrae", "2"}}, want: []string{"Grace", "Cy", "2 Vertebrae"}},
	{ruleset: gildedhall.ID, command: "trade-accept", actor: 2, opts: [][2]string{{"trade", "{trade}"}}, want: []string{"Cy accepted"}},
	{ruleset: gildedhall.ID, command: "trade-offer", actor: 1, opts: [][2]string{{"to", "{id:2}"}, {"give", `{"vertebrae":1}`}, {"take", `{}`}},
		chatOpts: [][2]string{{"player", "{player:2}"}, {"give_vertebrae", "1"}}},
	{ruleset: gildedhall.ID, command: "trade-withdraw", actor: 1, opts: [][2]string{{"trade", "{trade}"}}, want: []string{"Grace", "1 Vertebra "}},
	{ruleset: gildedhall.ID, command: "duel-request", actor: 1, opts: [][2]string{{"invitees", "{id:2}"}}, chatOpts: [][2]string{{"player", "{player:2}"}}, want: []string{"Grace", "Cy"}},
	{ruleset: gildedhall.ID, command: "duel-decline", actor: 2, opts: [][2]string{{"match", "{match}"}}, chat: "duel answer", chatOpts: [][2]string{{"accept", "false"}, {"match", "{match}"}}, want: []string{"cancelled"}},
	{ruleset: gildedhall.ID, command: "battle-engage", actor: 1, want: []string{"Grace"}},
	{ruleset: gildedhall.ID, command: "proposal-submit", actor: 1, opts: [][2]string{{"message", "{msg:1}"}, {"title", "More Chips"}}, chat: "propose",
		want: []string{"Grace", "proposal"}},
	{ruleset: gildedhall.ID, command: "proposal-withdraw", actor: 1, opts: [][2]string{{"proposal", "{proposal}"}}, chat: "withdraw", want: []string{"withdr"}},
	{ruleset: gildedhall.ID, command: "justice-request", actor: 2, opts: [][2]string{{"kind", "statement"}, {"text", "Gifts are free."}, {"message", "{msg:2}"}},
		want: []string{"Cy", "Gifts are free"}},
	{ruleset: gildedhall.ID, command: "judge-candidacy", actor: 0, opts: [][2]string{{"message", "{msg:3}"}}, want: []string{"Ada"}},
	// Grace and Cy vote for Ada's candidacy: she is elected when the week
	// ends (Monday 9 March 00:00 UTC), during the turns steps' wait.
	{ruleset: gildedhall.ID, command: "push-reactions", actor: 0, viaCLI: true, opts: [][2]string{{"message", "{msgref:3}"}, {"up", "{id:1},{id:2}"}}, want: []string{"2 👍"}},
	// An import carries Chips over to Grace; its revocation takes them back.
	{ruleset: gildedhall.ID, command: "import", actor: 0, cli: []string{"{importfile}", "--reason", "carried over"},
		opts: [][2]string{{"rows", `[{"player":"{id:1}","chips":2}]`}, {"reason", "carried over"}}, want: []string{"carried over", "1 player"}},
	{ruleset: gildedhall.ID, command: "import-revoke", actor: 0, cli: []string{"{import}", "--reason", "a mistake"},
		opts: [][2]string{{"import", "{import}"}, {"reason", "a mistake"}}, want: []string{"evoked"}},
}

// duelSteps are an Exoptosis duel between Ada and Dee that makes every
// move of the game once, each deterministic: the decks are the cards
// granted (so a draw from an exhausted deck asks for a giver), and the
// hands differ in size (so the turn order is Ada, Dee: X2).
var duelSteps = []answerStep{
	{ruleset: gildedhall.ID, command: "grant", actor: 0, viaCLI: true,
		cli: []string{"Ada", "--card", "2 of Clubs", "--card", "Ace of Clubs", "--card", "3 of Hearts", "--card", "4 of Hearts", "--card", "5 of Hearts", "--chips", "5", "--reason", "a duel"}},
	{ruleset: gildedhall.ID, command: "grant", actor: 0, viaCLI: true,
		cli: []string{"Dee", "--card", "9 of Spades", "--card", "10 of Spades", "--card", "8 of Clubs", "--card", "7 of Spades", "--card", "6 of Spades", "--chips", "5", "--reason", "a duel"}},
	{ruleset: gildedhall.ID, command: "duel-request", actor: 0, opts: [][2]string{{"invitees", "{id:3}"}}, chatOpts: [][2]string{{"player", "{player:3}"}}, want: []string{"Ada", "Dee"}},
	{ruleset: gildedhall.ID, command: "duel-accept", actor: 3, opts: [][2]string{{"match", "{match}"}}, chat: "duel answer", chatOpts: [][2]string{{"accept", "true"}, {"match", "{match}"}},
		want: []string{"Ada", "Dee"}},
	move(0, "select", "card", "2 of Clubs,Ace of Clubs,3 of Hearts,4 of Hearts,5 of Hearts", "Ada selected a hand. Duel", "between Ada and Dee is under way"),
	move(3, "select", "card", "9 of Spades,10 of Spades,8 of Clubs,7 of Spades", "Dee selected a hand. The hands were revealed."),
	// Betting (X8): Ada passes; Dee raises to 1; Ada raises further to
	// 2 (bet is raise's other name); Dee matches; Ada raises to 3, Dee
	// declines: the unmatched raise is refunded and play begins at 2.
	move(0, "pass", "", "", "Ada passed."),
	move(3, "raise", "level", "1", "Dee raised the bet to 1, paying 1 Chip."),
	move(0, "bet", "level", "2", "Ada raised the bet to 2, paying 2 Chips."),
	move(3, "match", "", "", "Dee matched the bet of 2, paying 1 Chip."),
	move(0, "raise", "level", "3", "Ada raised the bet to 3"),
	move(3, "decline", "", "", "Dee declined the bet. Ada got 1 Chip back from the pool.", "Ada, it is your turn."),
	// Play (X3-X5): Dee cannot follow the 2 of Clubs and adds his last
	// deck card; Ada's Ace makes him draw 2 from an exhausted deck, so
	// twice he chooses Ada to give him a card.
	move(0, "play", "card", "2 of Clubs", "Ada played 2 of Clubs. Dee, it is your turn."),
	move(3, "add", "card", "6 of Spades", "Dee added 6 of Spades from their deck to their hand."),
	move(0, "play", "card", "Ace of Clubs", "Ada played Ace of Clubs. Ada must choose another participant, who draws 2 (Ace of Clubs)."),
	move(0, "target", "player", "{player:3}", "Ace of Clubs took effect on Dee. Dee must choose who gives them a card."),
	move(3, "giver", "player", "{player:0}", "Dee chose Ada to give them a card. Ada must give Dee a card."),
	move(0, "give", "card", "3 of Hearts", "Ada gave 3 of Hearts to Dee."),
	move(3, "giver", "player", "{player:0}", "Dee chose Ada to give them a card. Ada must give Dee a card."),
	move(0, "give", "card", "4 of Hearts", "Ada gave 4 of Hearts to Dee.", "Dee, it is your turn."),
	// X9: Ada consents to end the match; Dee forfeits, and Ada, the last
	// standing, wins.
	move(0, "terminate", "", "", "Ada consented to end the match."),
	move(3, "forfeit", "", "", "Dee forfeited.", "is over: Ada won."),
}

// move is the step of match move kind by player actor, with its one
// argument (chat's option name, value) and what its answer says: the CLI
// runs match-KIND with the catalogue's fields, chat "match move".
func move(actor int, kind, opt, value string, want ...string) answerStep {
	s := answerStep{ruleset: gildedhall.ID, command: "match-" + kind, actor: actor, chat: "match move", want: want,
		opts: [][2]string{{"match", "{playing}"}}, chatOpts: [][2]string{{"kind", kind}, {"match", "{playing}"}}}
	field := map[string]string{"card": "card", "level": "amount", "player": "target"}[opt]
	switch {
	case kind == "select":
		field = "cards"
	case kind == "target":
		field = "targets"
	}
	if kind == "bet" {
		// Chat's move menu offers raise only, its other name: bet is a
		// pick of the menus a match's message shows.
		s.chat, s.chatOpts = "match pick", [][2]string{{"match", "{playing}"}, {"move", "bet||||" + value}}
	} else if opt != "" {
		s.chatOpts = append(s.chatOpts, [2]string{opt, value})
	}
	if opt != "" {
		v := value
		if n, ok := strings.CutPrefix(v, "{player:"); ok {
			v = "{id:" + n
		}
		s.opts = append(s.opts, [2]string{field, v})
	}
	return s
}

// judgeSteps run once Ada is the Judge (elected on Monday 9 March): she
// rules on Cy's request, overturns the ruling and rules again; Grace
// opens a vote of confidence and assents to removing her; she resigns.
var judgeSteps = []answerStep{
	{ruleset: gildedhall.ID, command: "ruling", actor: 0, opts: [][2]string{{"request", "{request}"}, {"answer", "TRUE"}}, chat: "rule", want: []string{"TRUE"}},
	{ruleset: gildedhall.ID, command: "ruling-overturn", actor: 0, opts: [][2]string{{"ruling", "{ruling}"}}, chat: "overturn", want: []string{"overturn"}},
	{ruleset: gildedhall.ID, command: "ruling", actor: 0, opts: [][2]string{{"request", "{request}"}, {"answer", "FALSE"}}, chat: "rule", want: []string{"FALSE"}},
	{ruleset: gildedhall.ID, command: "confidence-open", actor: 1, opts: [][2]string{{"ruling", "{ruling}"}, {"poll", "{msg:4}"}},
		chatOpts: [][2]string{{"ruling", "{ruling}"}, {"message", "{msg:4}"}}, want: []string{"confidence"}},
	{ruleset: gildedhall.ID, command: "judge-removal-assent", actor: 1, want: []string{"assent"}},
	{ruleset: gildedhall.ID, command: "judge-resign", actor: 0, want: []string{"resigned"}},
}

// ritualPatch adds the README's ritual type to an Obelisk game.
const ritualPatch = `[{"op":"add","path":"/obelisk/ritualTypes/cut-the-obelisk","value":{"id":"cut-the-obelisk","name":"Cut the Obelisk","cost":{"herbs":2,"resolve":1},"effects":[{"kind":"add-cuts","amount":1},{"kind":"grant","target":"contributors","components":{"blood":1}}]}}]`

// The edges' games and identities: the CLI's players are discord:11-14,
// Discord's users 21-24 in a guild per ruleset, Slack's U21-U24 in a
// team per ruleset.
type answerEdge struct {
	name  string
	game  func(ruleset string) string
	actor func(i int) string
	run   func(h *harness, s answerStep, game string, opts [][2]string) string
}

func TestIssue24_EveryAnswerIsSentences(t *testing.T) {
	h := newHarnessWith(t, "manual", func(c *serveConfig) {
		c.slackSecret, c.discordKey = slackSecret, discordtest.PublicKey()
	})
	reg := rulesets.Registry()
	ctx := context.Background()
	edges := []answerEdge{
		{name: "cli", game: func(r string) string { return r + "-cli" }, actor: func(i int) string { return fmt.Sprintf("discord:%d", 11+i) },
			run: func(h *harness, s answerStep, g string, opts [][2]string) string {
				args := []string{"play", "--game", g, "--as", fmt.Sprintf("discord:%d", 11+s.actor), s.command}
				if s.cli != nil {
					return h.must(append(args, s.cli...)...)
				}
				for _, o := range opts {
					args = append(args, "--"+o[0]+"="+o[1])
				}
				return h.must(args...)
			}},
		{name: "discord", game: func(r string) string { return r + "-discord" }, actor: func(i int) string { return fmt.Sprintf("discord:%d", 21+i) },
			run: func(h *harness, s answerStep, g string, opts [][2]string) string {
				return h.answerDiscord(t, reg, s, opts)
			}},
		{name: "slack", game: func(r string) string { return r + "-slack" }, actor: func(i int) string { return fmt.Sprintf("slack:U%d", 21+i) },
			run: func(h *harness, s answerStep, g string, opts [][2]string) string {
				return h.answerSlack(t, reg, s, opts)
			}},
	}
	// The Gilded Hall's first: its players join within three days of the
	// games' creation (reputable, as standing for Judge needs), and its
	// duel is played out, before the turns steps move the clock past the
	// week's end, when Ada is elected Judge; the Obelisk's banishment
	// moves it on last.
	table := slices.Concat(gildedHallSteps, duelSteps, turnsSteps, judgeSteps, obeliskSteps)
	// A common command is covered by its step in any ruleset: its
	// sentence is the same declaration's. A set-up step covers nothing.
	covered := map[string]bool{}
	for _, s := range table {
		if !s.viaCLI {
			covered[s.command] = true
		}
	}
	importFile := filepath.Join(t.TempDir(), "import.csv")
	if err := os.WriteFile(importFile, []byte("player,chips\nGrace,2\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{turns.ID, obelisk.ID, gildedhall.ID} {
		for _, name := range reg.CallableIn(id) {
			if !covered[name] {
				t.Errorf("the table has no step for %s's command %s", id, name)
			}
		}
		for _, e := range edges {
			admin := e.actor(0)
			if _, err := h.srv.svc.Create(ctx, game.Request{Actor: admin, Key: "create-" + e.game(id)}, game.CreateGame{ID: e.game(id), Ruleset: id}); err != nil {
				t.Fatal(err)
			}
		}
		// The chat games are bound to their guild and team.
		h.slashIn(answerGuild(id), "21", "bind", map[string]any{"name": "game", "type": discord.OptString, "value": edges[1].game(id)})
		h.slackIn(answerTeam(id), "U21", "bind "+edges[2].game(id))
	}
	for _, s := range table {
		if s.advance > 0 {
			h.must("play", "clock", "--advance", s.advance.String())
		}
		if s.untilVoted > 0 {
			ps, err := h.srv.svc.Proposals(ctx, edges[0].game(s.ruleset), "")
			if err != nil || len(ps) == 0 {
				t.Fatalf("%s: the proposals of %s: %v %v", s.command, edges[0].game(s.ruleset), ps, err)
			}
			h.must("play", "clock", "--set", ps[len(ps)-1].VotingEnd.Add(s.untilVoted).Format(time.RFC3339))
		}
		for _, e := range edges {
			if s.cliOnly && e.name != "cli" {
				continue
			}
			g := e.game(s.ruleset)
			opts := slices.Clone(s.opts)
			if e.name != "cli" && s.chatOpts != nil {
				opts = slices.Clone(s.chatOpts)
			}
			cli := slices.Clone(s.cli)
			values := []*string{}
			for i := range opts {
				values = append(values, &opts[i][1])
			}
			for i := range cli {
				values = append(values, &cli[i])
			}
			for _, v := range values {
				*v = h.answerValue(t, s, e, g, *v, importFile)
			}
			before := h.logged(t, g, s.command)
			var got string
			if s.viaCLI {
				args := []string{"play", "--game", g, "--as", e.actor(s.actor), s.command}
				if cli != nil {
					args = append(args, cli...)
				}
				for _, o := range opts {
					args = append(args, "--"+o[0]+"="+o[1])
				}
				got = h.must(args...)
			} else {
				s := s
				s.cli = cli
				got = e.run(h, s, g, opts)
			}
			what := fmt.Sprintf("%s %s on %s", s.ruleset, s.command, e.name)
			t.Logf("%s: %s", what, got)
			// It ran: a refusal in chat is an answer too, but logs nothing.
			if h.logged(t, g, s.command) <= before {
				t.Errorf("%s: the command did not run (nothing logged):\n%s", what, got)
			}
			// A chat platform shows a mention as the member's name.
			shown := mention.ReplaceAllStringFunc(got, func(m string) string {
				n, _ := strconv.Atoi(strings.Trim(m, "<@U>"))
				if i := n - 21; i >= 0 && i < len(answerPlayers) {
					return answerPlayers[i]
				}
				return m
			})
			for _, w := range s.want {
				if !strings.Contains(shown, w) {
					t.Errorf("%s: the answer lacks %q:\n%s", what, w, got)
				}
			}
			for _, bad := range notSentences(got, s.ruleset == turns.ID) {
				t.Errorf("%s: %s:\n%s", what, bad, got)
			}
		}
	}
}

// logged counts the entries of command in game g's log.
func (h *harness) logged(t *testing.T, g, command string) int {
	t.Helper()
	n, cursor := 0, ""
	for {
		page, err := h.srv.svc.Log(context.Background(), g, cursor, 500)
		if err != nil {
			t.Fatalf("the log of %s: %v", g, err)
		}
		for _, e := range page.Entries {
			if e.Command == command {
				n++
			}
		}
		if page.Next == "" {
			return n
		}
		cursor = page.Next
	}
}

// answerValue is an argument of step s on edge e's game g with its
// placeholders filled: "{id:N}" (anywhere in it) is player N's identity
// on the edge, "{player:N}" how the edge names player N, "{msg:N}" a
// message of the edge's channel as the step's argument ("{msgref:N}": as
// a platform's report names it), and "{case}", "{gathering}",
// "{proposal}", "{trade}", "{match}" (a duel asked), "{playing}" (a
// match under way), "{request}", "{ruling}" and "{import}" the game's
// latest of them.
func (h *harness) answerValue(t *testing.T, s answerStep, e answerEdge, g, v, importFile string) string {
	t.Helper()
	ctx := context.Background()
	fail := func(what string, got any, err error) {
		t.Fatalf("%s on %s: the %s of %s: %v %v", s.command, e.name, what, g, got, err)
	}
	for i := range answerPlayers {
		v = strings.ReplaceAll(v, fmt.Sprintf("{id:%d}", i), e.actor(i))
	}
	if n, ok := strings.CutPrefix(v, "{player:"); ok {
		i, _ := strconv.Atoi(strings.TrimSuffix(n, "}"))
		return map[string]string{"cli": answerPlayers[i], "discord": strconv.Itoa(21 + i), "slack": fmt.Sprintf("<@U%d>", 21+i)}[e.name]
	}
	if n, ok := strings.CutPrefix(v, "{msg:"); ok {
		n = strings.TrimSuffix(n, "}")
		return map[string]string{"cli": `{"platform":"discord","channel":"700","message":"930` + n + `"}`, "discord": "930" + n,
			"slack": "1700000000.00010" + n}[e.name]
	}
	if n, ok := strings.CutPrefix(v, "{msgref:"); ok {
		n = strings.TrimSuffix(n, "}")
		return map[string]string{"cli": `{"platform":"discord","channel":"700","message":"930` + n + `"}`,
			"discord": `{"platform":"discord","channel":"700","message":"930` + n + `"}`,
			"slack":   `{"platform":"slack","channel":"C0PLAY","message":"1700000000.00010` + n + `"}`}[e.name]
	}
	if strings.Contains(v, "{entry}") { // the game's first log entry
		page, err := h.srv.svc.Log(ctx, g, "", 1)
		if err != nil || len(page.Entries) == 0 {
			fail("log", page, err)
		}
		v = strings.ReplaceAll(v, "{entry}", page.Entries[0].ID)
	}
	switch v {
	case "{importfile}":
		return importFile
	case "{gathering}":
		gs, err := obelisk.On(h.srv.svc).Gatherings(ctx, g)
		if err != nil || len(gs) == 0 {
			fail("Gatherings", gs, err)
		}
		return gs[0].ID
	case "{case}":
		cs, err := turns.Cases(ctx, h.srv.svc, g)
		if err != nil || len(cs) == 0 {
			fail("cases", cs, err)
		}
		return strconv.Itoa(cs[len(cs)-1].Number)
	case "{proposal}":
		ps, err := h.srv.svc.Proposals(ctx, g, "")
		if err != nil || len(ps) == 0 {
			fail("proposals", ps, err)
		}
		return ps[len(ps)-1].ID
	case "{trade}":
		trs, err := trades.On(h.srv.svc).Trades(ctx, g, trades.TradeFilter{Status: trades.TradeOpen})
		j := slices.IndexFunc(trs, func(tr trades.Trade) bool { return tr.Status == trades.TradeOpen })
		if err != nil || j < 0 {
			fail("trades", trs, err)
		}
		return trs[j].ID
	case "{match}", "{playing}":
		status := map[string]string{"{match}": gildedhall.MatchRequested, "{playing}": gildedhall.MatchPlaying}[v]
		ms, err := gildedhall.On(h.srv.svc).Matches(ctx, g, gildedhall.MatchFilter{})
		j := slices.IndexFunc(ms, func(m gildedhall.MatchSummary) bool { return m.Status == status })
		if err != nil || j < 0 {
			fail("matches", ms, err)
		}
		return ms[j].ID
	case "{request}":
		rs, err := h.srv.svc.JusticeRequests(ctx, g, "")
		if err != nil || len(rs) == 0 {
			fail("requests for justice", rs, err)
		}
		return rs[len(rs)-1].Request.ID
	case "{ruling}":
		rs, err := h.srv.svc.Rulings(ctx, g)
		if err != nil || len(rs) == 0 {
			fail("rulings", rs, err)
		}
		return rs[len(rs)-1].ID
	case "{import}":
		page, err := h.srv.svc.Log(ctx, g, "", 500)
		var id string
		for _, en := range page.Entries {
			var r gildedhall.ImportResult
			if en.Command == "import" && json.Unmarshal(en.Response, &r) == nil {
				id = r.ID
			}
		}
		if err != nil || id == "" {
			fail("imports", page.Next, err)
		}
		return id
	}
	return v
}

// The marks of an answer that is not sentences: a key: value line, JSON,
// Go's formatting of a map, a list or a duration, a platform id, a
// calendar key or a raw term; in a turns game, a time not in the game's
// zone.
var (
	mention      = regexp.MustCompile(`<@U?\d+>`)
	keyValueLine = regexp.MustCompile(`(?m)^\s*[a-z][a-z _]*: `)
	jsonMark     = regexp.MustCompile(`[{\[]\s*"|"\s*:\s*["{\[\d]`)
	goList       = regexp.MustCompile(`\[[^\]\s]+( [^\]\s]+)+\]`)
	goDuration   = regexp.MustCompile(`\b\d+h\d+m\d+s\b|\b\d+h0m\b`)
	// Every player of the table has a name: no answer shows their id
	// (chat's mentions show as names).
	platformID  = regexp.MustCompile(`\b(discord|slack):[A-Za-z0-9]+`)
	calendarKey = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d|first_half|latter_half|turn-(begin|middle|end)\b|judge-deadline`)
	badPlural   = regexp.MustCompile(`\b1 (points|cards|Chips|Vertebrae|days|hours|minutes|players|votes)\b`)
	doubled     = regexp.MustCompile(`[.!?]\s*\.`)
	clockTime   = regexp.MustCompile(`\b\d\d:\d\d\b`)
)

func answerGuild(ruleset string) string {
	return map[string]string{turns.ID: "920", obelisk.ID: "921", gildedhall.ID: "922"}[ruleset]
}

func answerTeam(ruleset string) string {
	return map[string]string{turns.ID: "T20", obelisk.ID: "T21", gildedhall.ID: "T22"}[ruleset]
}

func notSentences(s string, turnsGame bool) []string {
	var out []string
	check := func(re *regexp.Regexp, what string) {
		if m := re.FindString(s); m != "" {
			out = append(out, fmt.Sprintf("%s (%q)", what, m))
		}
	}
	check(keyValueLine, "a key: value line")
	check(jsonMark, "JSON")
	check(goList, "a bracketed list")
	check(goDuration, "a Go duration")
	check(platformID, "a platform id where the name is known")
	check(calendarKey, "a calendar key or raw term")
	check(badPlural, "a wrong plural")
	check(doubled, "doubled punctuation")
	if strings.Contains(s, "map[") {
		out = append(out, "a Go map")
	}
	if turnsGame && clockTime.MatchString(s) && !strings.Contains(s, "CDT") && !strings.Contains(s, "CST") {
		out = append(out, "a time not in the game's zone (America/Chicago)")
	}
	if strings.TrimSpace(s) == "" {
		out = append(out, "no answer")
	}
	return out
}

// chatCommand is the chat command that runs step s in ruleset s.ruleset:
// its path ("turns propose", "pool-enter") and options by name.
func chatCommand(t *testing.T, reg *game.Registry, s answerStep) chat.Command {
	t.Helper()
	for _, c := range chat.CommandsFor(reg, s.ruleset) {
		if c.Hidden && s.chat == "" || c.Kind != chat.Slash {
			continue
		}
		if s.chat != "" && c.Name == s.chat || s.chat == "" && slices.Contains(c.Runs, s.command) {
			return c
		}
	}
	t.Fatalf("no chat command runs %s in %s", s.command, s.ruleset)
	return chat.Command{}
}

func (h *harness) answerDiscord(t *testing.T, reg *game.Registry, s answerStep, opts [][2]string) string {
	t.Helper()
	c := chatCommand(t, reg, s)
	types := map[string]chat.OptionType{}
	for _, o := range c.Options {
		types[o.Name] = o.Type
	}
	var os []map[string]any
	for _, o := range opts {
		var v any = o[1]
		typ := discord.OptString
		switch types[o[0]] {
		case chat.Integer:
			typ = discord.OptInteger
			v, _ = strconv.Atoi(o[1])
		case chat.Boolean:
			typ = discord.OptBoolean
			v = o[1] == "true"
		case chat.User:
			typ = discord.OptUser
		}
		os = append(os, map[string]any{"name": o[0], "type": typ, "value": v})
	}
	path := strings.Fields(c.Name)
	if len(path) == 2 {
		os = []map[string]any{{"name": path[1], "type": discord.OptSubCommand, "options": os}}
	}
	return h.slashIn(answerGuild(s.ruleset), strconv.Itoa(21+s.actor), path[0], os...)
}

func (h *harness) answerSlack(t *testing.T, reg *game.Registry, s answerStep, opts [][2]string) string {
	t.Helper()
	c := chatCommand(t, reg, s)
	text := c.Name
	for _, o := range opts {
		if strings.HasPrefix(o[1], "{") || strings.HasPrefix(o[1], "[") {
			text += fmt.Sprintf(" %s=%s", o[0], o[1]) // JSON is kept whole
		} else {
			text += fmt.Sprintf(" %s=%q", o[0], o[1])
		}
	}
	return slackTexts(t, h.slackIn(answerTeam(s.ruleset), fmt.Sprintf("U%d", 21+s.actor), text))
}

// slashIn is slash with the user's display name one of answerPlayers.
func (h *harness) slashIn(guild, user, name string, opts ...map[string]any) string {
	h.t.Helper()
	h.keys++
	id := fmt.Sprintf("%d", 5000+h.keys)
	n, _ := strconv.Atoi(user)
	display := "User " + user
	if i := n - 21; i >= 0 && i < len(answerPlayers) {
		display = answerPlayers[i]
	}
	data, _ := json.Marshal(map[string]any{"id": "c-" + name, "name": name, "type": discord.CommandChatInput, "options": opts})
	body, _ := json.Marshal(map[string]any{"id": id, "application_id": "4242", "type": discord.InteractionCommand, "token": "tok-" + id, "version": 1,
		"guild_id": guild, "channel_id": "700", "data": json.RawMessage(data),
		"member": map[string]any{"user": map[string]any{"id": user, "username": "user" + user, "global_name": display}}})
	code, dr, raw := h.discordPost(body, true)
	if code != http.StatusOK || dr.Data == nil {
		h.t.Fatalf("/%s: %d %s", name, code, raw)
	}
	return replyText(dr)
}

// slackIn is slack in team.
func (h *harness) slackIn(team, user, text string) string {
	h.t.Helper()
	h.keys++
	form := url.Values{"team_id": {team}, "channel_id": {"C0PLAY"}, "user_id": {user}, "user_name": {strings.ToLower(user)},
		"command": {"/croupier"}, "text": {text}, "trigger_id": {fmt.Sprintf("trig-%d", h.keys)}}.Encode()
	r, _ := http.NewRequest(http.MethodPost, h.ts.URL+"/slack/commands", strings.NewReader(form))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	r.Header.Set("X-Slack-Request-Timestamp", stamp)
	r.Header.Set("X-Slack-Signature", slackchat.Sign([]byte(slackSecret), stamp, []byte(form)))
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("slack %q: %d %s", text, resp.StatusCode, b)
	}
	return string(b)
}
