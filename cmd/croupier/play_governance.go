package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
	"croupier/internal/rulesets/obelisk"
)

// The play commands of governance (RULINGS G1-G5): proposals, requests for
// justice and rulings, votes of confidence, the Judge and Judge elections,
// and the reaction pushes a bridge makes (votes are reactions on chat
// messages, so every record names its message with --channel and
// --message).

// msgFlags are the flags naming a chat message.
type msgFlags struct{ platform, channel, message string }

func (m *msgFlags) register(fs *flag.FlagSet, what string) {
	fs.StringVar(&m.platform, "platform", "discord", "chat `platform` of the message")
	fs.StringVar(&m.channel, "channel", "", "`id` of the channel of the "+what+" message (required)")
	fs.StringVar(&m.message, "message", "", "`id` of the "+what+" message (required)")
}

func (m *msgFlags) ref() (game.MessageRef, error) {
	if m.channel == "" || m.message == "" {
		return game.MessageRef{}, usagef("name the chat message: --channel ID --message ID")
	}
	return game.MessageRef{Platform: m.platform, Channel: m.channel, Message: m.message}, nil
}

func governanceCommands() map[string]playCmd {
	return map[string]playCmd{
		"propose": {
			synopsis: "propose --channel C --message M [--urgent] [--title T] [--text T] [--amend JSON | --price ITEM=N] [--banish PLAYER --for D]\n\n" +
				"Submits your chat message as a proposal: its 👍 and 👎 reactions when the voting\n" +
				"period ends are the votes. Standard proposals are voted on during the next phase;\n" +
				"--urgent ones (reputable players only) for 48 hours. --amend is a change to the\n" +
				"ruleset data applied if the proposal is adopted: operations such as\n" +
				"[{\"op\":\"replace\",\"path\":\"/shop/chip/price\",\"value\":20}] (or a merge patch);\n" +
				"--price random-card=4 builds one that changes a Croupier price, and nothing else.\n" +
				"In an obelisk game, --banish PLAYER --for 72h makes it a banishment proposal:\n" +
				"adopted, it banishes the player from the end of its vote (RULINGS O11).",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var m msgFlags
				m.register(fs, "proposal")
				urgent := fs.Bool("urgent", false, "an urgent proposal (48-hour vote; reputable players only)")
				title := fs.String("title", "", "a short `title` for announcements")
				text := fs.String("text", "", "the proposal's `text` (a copy of the message)")
				amend := fs.String("amend", "", "a change to the ruleset data, as `JSON` operations (or a merge patch)")
				var prices listFlag
				fs.Var(&prices, "price", "`ITEM=N`: the amendment changes a Croupier price (repeatable)")
				banish := fs.String("banish", "", "a banishment proposal (obelisk): the `player` to banish")
				banishFor := fs.String("for", "", "the Banishment `duration` of --banish, e.g. 72h")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					ref, err := m.ref()
					if err != nil {
						return err
					}
					sp := game.SubmitProposal{Message: ref, Title: *title, Text: *text}
					if *banish != "" || *banishFor != "" {
						if *banish == "" || *banishFor == "" {
							return usagef("a banishment proposal needs --banish PLAYER and --for DURATION")
						}
						who, err := p.resolvePlayer("--banish", *banish)
						if err != nil {
							return err
						}
						b := obelisk.BanishmentProposal(ref, who, *banishFor)
						b.Title = obelisk.BanishmentTitle(p.nameOf()(who), *banishFor)
						sp.Kind, sp.Params = b.Kind, b.Params
						if sp.Title == "" {
							sp.Title = b.Title
						}
					}
					if *urgent {
						sp.Class = governance.Urgent
					}
					switch {
					case *amend != "" && len(prices) > 0:
						return usagef("give --amend JSON or --price ITEM=N, not both")
					case *amend != "":
						if !json.Valid([]byte(*amend)) {
							return usagef("--amend is not valid JSON: %s", *amend)
						}
						sp.Amendment = json.RawMessage(*amend)
					case len(prices) > 0:
						if sp.Amendment, err = p.pricePatch(prices); err != nil {
							return err
						}
					}
					return show(p, prefixed("Submitted ", named(p, proposalText)))(p.c.SubmitProposal(p.ctx, p.idem(), p.opts.game, sp))
				}
			},
		},
		"proposals": {
			synopsis: "proposals [--status open|adopted|failed|withdrawn]", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				status := fs.String("status", "", "only proposals with this `status`")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					switch governance.Status(*status) {
					case "", governance.StatusOpen, governance.StatusAdopted, governance.StatusFailed, governance.StatusWithdrawn:
					default:
						return usagef("--status must be open, adopted, failed or withdrawn, not %q", *status)
					}
					return show(p, linesOr("No proposals in "+p.opts.game+".", named(p, proposalText)))(p.c.Proposals(p.ctx, p.opts.game, *status))
				}
			},
		},
		"proposal": {
			synopsis: "proposal [ID]   (an id prefix is enough; without ID, the only open proposal)", needGame: true,
			setup: noFlags(upTo(1, "the proposal id"), func(p *player, pos []string) error {
				id, err := p.proposalID(first(pos), false)
				if err != nil {
					return err
				}
				return show(p, named(p, proposalText))(p.c.Proposal(p.ctx, p.opts.game, id))
			}),
		},
		"withdraw-proposal": {
			synopsis: "withdraw-proposal [ID]   (your open proposal, before its vote ends; without ID, your only one)", needGame: true, needActor: true,
			setup: noFlags(upTo(1, "the proposal id"), func(p *player, pos []string) error {
				id, err := p.proposalID(first(pos), true)
				if err != nil {
					return err
				}
				return show(p, prefixed("Withdrew ", named(p, proposalText)))(p.c.WithdrawProposal(p.ctx, p.idem(), p.opts.game, id))
			}),
		},
		"rfj": {
			synopsis: "rfj statement|question TEXT --channel C --message M   (a request for justice)",
			needGame: true, needActor: true,
			setup: onMessage("request", func(pos []string) error {
				if len(pos) < 2 || (pos[0] != string(governance.KindStatement) && pos[0] != string(governance.KindQuestion)) {
					return usagef("expected statement or question, then the text, e.g. rfj question \"Do Jokers count as Red?\" --channel C --message M")
				}
				return nil
			}, func(p *player, pos []string, ref game.MessageRef) error {
				body := game.RequestJustice{Kind: governance.RequestKind(pos[0]), Text: strings.Join(pos[1:], " "), Message: ref}
				return show(p, prefixed("Requested justice: ", named(p, justiceText)))(p.c.RequestJustice(p.ctx, p.idem(), p.opts.game, body))
			}),
		},
		"rule": {
			synopsis: "rule [REQUEST] ANSWER   (the Judge: TRUE or FALSE for a statement, text for a question;\n" +
				"REQUEST is an id or its first characters; without it, the only open request)",
			needGame: true, needActor: true,
			setup: noFlags(func(pos []string) error {
				if len(pos) < 1 {
					return usagef("expected the answer, after the request id when several are open, e.g. rule 01KB TRUE")
				}
				return nil
			}, func(p *player, pos []string) error {
				open, err := p.openRequests()
				if err != nil {
					return err
				}
				id, answer := "", pos
				if len(pos) > 1 {
					if got, err := pickID("request", pos[0], open, nil); err == nil {
						id, answer = got, pos[1:]
					}
				}
				if id == "" {
					if id, err = pickID("open request for justice", "", open, open); err != nil {
						return err
					}
				}
				return show(p, prefixed("Ruled: ", named(p, rulingText)))(p.c.Rule(p.ctx, p.idem(), p.opts.game, id, strings.Join(answer, " ")))
			}),
		},
		"overturn": {
			synopsis: "overturn [RULING]   (the Judge, within 7 days of their own ruling; without RULING, the only one standing)", needGame: true, needActor: true,
			setup: noFlags(upTo(1, "the ruling id"), func(p *player, pos []string) error {
				id, err := p.rulingID(first(pos))
				if err != nil {
					return err
				}
				return show(p, prefixed("Overturned: ", named(p, rulingText)))(p.c.Overturn(p.ctx, p.idem(), p.opts.game, id))
			}),
		},
		"confidence": {
			synopsis: "confidence RULING --channel C --message M   (a 48-hour vote of confidence on the poll message)",
			needGame: true, needActor: true,
			setup: onMessage("poll", upTo(1, "the ruling id"), func(p *player, pos []string, ref game.MessageRef) error {
				id, err := p.rulingID(first(pos))
				if err != nil {
					return err
				}
				return show(p, prefixed("Vote of confidence opened: ", named(p, rulingText)))(p.c.OpenConfidence(p.ctx, p.idem(), p.opts.game, id, ref))
			}),
		},
		"rulings": {
			synopsis: "rulings   (every ruling, in the order made)", needGame: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				return show(p, linesOr("No rulings in "+p.opts.game+".", named(p, rulingText)))(p.c.Rulings(p.ctx, p.opts.game))
			}),
		},
		"judge": {
			synopsis: "judge   (the Judge, removal assents, and the queue of requests)", needGame: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				js, rep, err := p.c.Judge(p.ctx, p.opts.game)
				if err != nil {
					return err
				}
				if p.opts.json {
					return p.out(rep, nil)
				}
				queue, _, err := p.c.JusticeRequests(p.ctx, p.opts.game, governance.RequestOpen)
				if err != nil {
					return err
				}
				return p.out(rep, func() string { return judgeText(js, queue, p.nameOf()) })
			}),
		},
		"assent-removal": {
			synopsis: "assent-removal   (assent to removing the Judge; two players' assent removes them)",
			needGame: true, needActor: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				return show(p, named(p, officeText))(p.c.AssentRemoval(p.ctx, p.idem(), p.opts.game))
			}),
		},
		"resign": {
			synopsis: "resign   (the Judge resigns)", needGame: true, needActor: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				return show(p, named(p, officeText))(p.c.Resign(p.ctx, p.idem(), p.opts.game))
			}),
		},
		"stand": {
			synopsis: "stand --channel C --message M   (stand for Judge this week with your message; reputable players)",
			needGame: true, needActor: true,
			setup: onMessage("candidacy", nArgs(0, ""), func(p *player, pos []string, ref game.MessageRef) error {
				return show(p, func(v governance.Candidacy) string {
					return fmt.Sprintf("%s stands for Judge in %s (candidacy %s, message %s).", v.Candidate, v.Week, v.ID, msgText(v.Message))
				})(p.c.StandForJudge(p.ctx, p.idem(), p.opts.game, game.StandForJudge{Message: ref}))
			}),
		},
		"candidacies": {
			synopsis: "candidacies [--week 2026-W49]   (a week's Judge election; default this week)", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				week := fs.String("week", "", "ISO `week`, e.g. 2026-W49")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					return show(p, named(p, candidaciesText))(p.c.Candidacies(p.ctx, p.opts.game, *week))
				}
			},
		},
		"react": {
			synopsis: "react --channel C --message M [--up ID ...] [--down ID ...] [--op set|add|remove]\n\n" +
				"Pushes the 👍 (--up) and 👎 (--down) reactions on a message, as a bridge does:\n" +
				"with --op set (the default) they are the complete sets now. IDs are platform\n" +
				"identities such as discord:2, repeatable or comma-separated.",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var up, down listFlag
				fs.Var(&up, "up", "`ID` of a user reacting 👍 (repeatable)")
				fs.Var(&down, "down", "`ID` of a user reacting 👎 (repeatable)")
				op := fs.String("op", "set", "`set` (complete sets), add or remove")
				return onMessage("", nArgs(0, ""), func(p *player, pos []string, ref game.MessageRef) error {
					body := game.PushReactions{Message: ref, Op: *op, Up: up, Down: down}
					return show(p, pushedText(p.lazyNameOf()))(p.c.PushReactions(p.ctx, p.idem(), p.opts.game, body))
				})(fs)
			},
		},
		"message-event": {
			synopsis: "message-event edited|deleted --channel C --message M   (a message was edited or deleted)",
			needGame: true, needActor: true,
			setup: onMessage("", func(pos []string) error {
				if err := wantArgs(pos, 1, "edited or deleted"); err != nil {
					return err
				}
				if pos[0] != "edited" && pos[0] != "deleted" {
					return usagef("expected edited or deleted, not %q", pos[0])
				}
				return nil
			}, func(p *player, pos []string, ref game.MessageRef) error {
				return show(p, pushedText(p.lazyNameOf()))(p.c.PushMessageEvent(p.ctx, p.idem(), p.opts.game, game.MessageEvent{Message: ref, Event: pos[0]}))
			}),
		},
	}
}

// onMessage is the setup of a command on one chat message, named by the
// msgFlags (what says which message, in their help): check vets the
// arguments, then run runs with the message.
func onMessage(what string, check func(pos []string) error, run func(p *player, pos []string, ref game.MessageRef) error) setupFunc {
	return func(fs *flag.FlagSet) func(*player, []string) error {
		var m msgFlags
		m.register(fs, what)
		return noFlags(check, func(p *player, pos []string) error {
			ref, err := m.ref()
			if err != nil {
				return err
			}
			return run(p, pos, ref)
		})(fs)
	}
}

// named is text with the game's display names for the ids it shows.
func named[T any](p *player, text func(T, func(string) string) string) func(T) string {
	return func(v T) string { return text(v, p.nameOf()) }
}

// prefixed is text, after a fixed prefix.
func prefixed[T any](prefix string, text func(T) string) func(T) string {
	return func(v T) string { return prefix + text(v) }
}

// linesOr is a list one text a line, or none when the list is empty.
func linesOr[T any](none string, text func(T) string) func([]T) string {
	return func(vs []T) string {
		if len(vs) == 0 {
			return none
		}
		ls := make([]string, len(vs))
		for i, v := range vs {
			ls[i] = text(v)
		}
		return strings.Join(ls, "\n")
	}
}

// officeText is the office of Judge after a command on it.
func officeText(js game.JudgeState, name func(string) string) string { return judgeText(js, nil, name) }

func msgText(m game.MessageRef) string { return m.Platform + "/" + m.Channel + "/" + m.Message }

func proposalText(v game.ProposalView, name func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "proposal %s", v.ID)
	if v.Title != "" {
		fmt.Fprintf(&b, " %q", v.Title)
	}
	fmt.Fprintf(&b, " by %s (%s, message %s): %s", name(v.Author), v.Class, msgText(v.Message), v.Status)
	switch {
	case v.Status == governance.StatusOpen:
		fmt.Fprintf(&b, "; voting %s to %s", stamp(v.VotingStart), stamp(v.VotingEnd))
		if v.Live != nil {
			fmt.Fprintf(&b, "; now %d for, %d against (%s)", v.Live.For, v.Live.Against, popularity(v.Live.Popular))
		} else if v.LiveError != "" {
			fmt.Fprintf(&b, "; current votes unavailable: %s", v.LiveError)
		}
	case v.Result != nil:
		fmt.Fprintf(&b, " at %s: %s", stamp(v.ClosedAt), v.Result.Reason)
	case !v.ClosedAt.IsZero():
		fmt.Fprintf(&b, " at %s", stamp(v.ClosedAt))
	}
	if len(v.Amendment) > 0 {
		if v.Summary != "" {
			fmt.Fprintf(&b, "; amendment: %s", v.Summary)
		} else {
			b.WriteString("; it changes the ruleset (croupier play proposal " + v.ID + " --json shows how)")
		}
		if v.RulesetVersion > 0 {
			fmt.Fprintf(&b, " (ruleset version %d)", v.RulesetVersion)
		}
		if v.AmendmentError != "" {
			fmt.Fprintf(&b, " (not applied: %s)", v.AmendmentError)
		}
		for _, m := range v.BaseMoved {
			fmt.Fprintf(&b, " (applied as written: %s)", m)
		}
	}
	return b.String()
}

func popularity(p bool) string {
	if p {
		return "popular"
	}
	return "not popular"
}

func justiceText(r game.JusticeRecord, name func(string) string) string {
	s := fmt.Sprintf("request %s by %s (%s, message %s): %q, %s", r.Request.ID, name(r.Request.Author), r.Request.Kind,
		msgText(r.Request.Message), r.Request.Text, r.Request.Status)
	if r.Request.Ruling != "" {
		s += ", ruling " + r.Request.Ruling
	}
	return s
}

func rulingText(r game.RulingView, name func(string) string) string {
	s := fmt.Sprintf("ruling %s by Judge %s at %s on %s %q by %s: %s", r.ID, name(r.Judge), stamp(r.At), r.Kind, r.Text, name(r.Requester), r.Answer)
	if r.Overturned {
		s += fmt.Sprintf(" (overturned by %s at %s: no bearing)", r.OverturnedBy, stamp(r.OverturnedAt))
	}
	if c := r.Confidence; c != nil {
		s += fmt.Sprintf("; vote of confidence on %s until %s: %s", msgText(c.Poll), stamp(c.EndsAt), c.Status)
		if c.Result != nil {
			s += " (" + c.Result.Reason + ")"
		}
	}
	return s
}

func judgeText(js game.JudgeState, queue []game.JusticeRecord, name func(string) string) string {
	var b strings.Builder
	if js.Judge == "" {
		b.WriteString("There is no Judge.")
	} else {
		fmt.Fprintf(&b, "The Judge is %s, since %s.", name(js.Judge), stamp(js.Since))
		if len(js.RemovalAssents) > 0 {
			fmt.Fprintf(&b, " Assenting to their removal: %s (two remove them).", game.NameList(name, js.RemovalAssents))
		}
	}
	if queue != nil {
		fmt.Fprintf(&b, "\n%d request(s) waiting for a ruling", len(queue))
		for _, r := range queue {
			b.WriteString("\n  " + justiceText(r, name))
		}
	}
	return b.String()
}

func candidaciesText(v game.CandidaciesView, name func(string) string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Judge election of %s (ends %s): %s", v.Week, stamp(v.EndsAt), v.Status)
	for _, c := range v.Candidacies {
		fmt.Fprintf(&b, "\n  %s stands (candidacy %s, message %s)", name(c.Candidate), c.ID, msgText(c.Message))
	}
	e := v.Result
	if e == nil {
		e = v.Live
	}
	if e != nil {
		for _, s := range e.Standings {
			fmt.Fprintf(&b, "\n  %s: %d 👍, %d 👎, %s", name(s.Candidate), s.Up, s.Down, popularity(s.Popular))
		}
		if v.Result != nil {
			b.WriteString("\nResult: " + e.Reason)
		} else {
			b.WriteString("\nIf the week ended now: " + e.Reason)
		}
	}
	if v.LiveError != "" {
		b.WriteString("\nCurrent votes unavailable: " + v.LiveError)
	}
	return b.String()
}

// pushedText is a push's answer, naming the reacting players.
func pushedText(name func(string) string) func(game.PushedView) string {
	return func(v game.PushedView) string {
		s := fmt.Sprintf("Message %s: 👍 %s; 👎 %s", msgText(v.Message), sampled(v.Up, v.UpCount, name), sampled(v.Down, v.DownCount, name))
		if v.Edited {
			s += "; edited"
		}
		if v.Deleted {
			s += "; deleted"
		}
		return s + " (" + game.Count(v.Changes, "change", "changes") + " recorded)."
	}
}

// sampled says a reaction side of which the response holds a sample.
func sampled(ids []string, n int, name func(string) string) string {
	ns := make([]string, len(ids))
	for i, id := range ids {
		ns[i] = name(id)
	}
	if n > len(ids) {
		return fmt.Sprintf("%d: %s and %d more", n, strings.Join(ns, ", "), n-len(ids))
	}
	return orNone(ns)
}

func orNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}
