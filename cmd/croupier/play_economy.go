package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"croupier/internal/game"
	"croupier/internal/rules/economy"
	"croupier/internal/ruleset"
	"croupier/internal/rulesets/gildedhall"
)

// The economy's play commands: the Croupier, packs, gifts, trades and the
// admins' corrections (grant, revoke, amend).

// subcommands are the play commands spelled as two words ("trade offer").
var subcommands = map[string][]string{"trade": {"offer", "accept", "withdraw", "show"}}

func economyCommands() map[string]playCmd {
	return map[string]playCmd{
		"me": {
			synopsis: "me [--ids]   (your status; the same as status)", needGame: true, needActor: true,
			setup: statusSetup,
		},
		"shop": {
			synopsis: "shop   (what the Croupier sells, at this game's prices)", needGame: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				return show(p, func(v []gildedhall.ShopItemView) string { return shopText(p.opts.game, v) })(p.c.Shop(p.ctx, p.opts.game))
			}),
		},
		"buy": {
			synopsis: "buy ITEM [--quantity N]   (ITEM from croupier play shop, e.g. handy-pack; \"buy 2 random-card\" works too)",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				quantity := fs.Int("quantity", 1, "how many to buy, all or nothing")
				return func(p *player, pos []string) error {
					b := gildedhall.Purchase{Quantity: *quantity}
					if len(pos) == 2 {
						if n, err := strconv.Atoi(pos[0]); err == nil {
							if *quantity != 1 && *quantity != n {
								return usagef("two quantities: %d and --quantity %d", n, *quantity)
							}
							b.Quantity, pos = n, pos[1:]
						}
					}
					if err := wantArgs(pos, 1, "the item, e.g. buy handy-pack (croupier play shop lists them)"); err != nil {
						return err
					}
					if b.Quantity < 1 {
						return usagef("the quantity must be at least 1, not %d", b.Quantity)
					}
					b.Item = strings.ToLower(pos[0])
					return show(p, func(v gildedhall.PurchaseResult) string { return boughtText(p.nameOf()(p.opts.as), v) })(p.c.Purchase(p.ctx, p.idem(), p.opts.game, b))
				}
			},
		},
		"open": {
			synopsis: "open PACK   (a pack id, or a kind such as handy-pack for your oldest pack of that kind)",
			needGame: true, needActor: true,
			setup: noFlags(nil, func(p *player, pos []string) error {
				if len(pos) == 0 {
					return usagef("expected the pack, e.g. open handy-pack (croupier play me --ids lists yours)")
				}
				ref := strings.Join(pos, " ")
				if strings.ContainsFunc(ref, func(r rune) bool { return r == ' ' || unicode.IsUpper(r) }) {
					// A pack's name ("Handy Pack"): the server takes ids and kinds.
					me, _, err := p.c.Player(p.ctx, p.opts.game, "")
					if err != nil {
						return err
					}
					for _, pe := range gildedhall.ViewOf(me).Packs {
						if strings.EqualFold(pe.Name, ref) || strings.EqualFold(pe.Pack, ref) {
							ref = pe.Pack
						}
					}
				}
				return show(p, func(v economy.Opened) string { return openedText(p.nameOf()(p.opts.as), v) })(p.c.OpenPack(p.ctx, p.idem(), p.opts.game, gildedhall.OpenPack{Pack: ref}))
			}),
		},
		"gift": {
			synopsis: "gift PLAYER   (once per period: random cards for another player)", needGame: true, needActor: true,
			setup: noFlags(nArgs(1, "the receiver, e.g. gift Bob"), func(p *player, pos []string) error {
				to, err := p.resolvePlayer("gift", pos[0])
				if err != nil {
					return err
				}
				return show(p, func(v gildedhall.GiftResult) string { return giftText(v, p.nameOf()) })(p.c.Gift(p.ctx, p.idem(), p.opts.game, gildedhall.Gift{To: to}))
			}),
		},
		"trade offer": {
			synopsis: "trade offer PLAYER --give ITEMS --take ITEMS [--note N]\n\n" +
				"Offers PLAYER a trade: you give --give, they give --take (either may be\n" +
				"empty, not both). Your offer is your consent; it executes when PLAYER\n" +
				"accepts within the trade window, if both still hold everything.\n\n" + strings.TrimSuffix(itemsHelp, "\n"),
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				give := fs.String("give", "", "what you give: `ITEMS`, e.g. \"3 vertebrae, card e08f49f383.1\"")
				take := fs.String("take", "", "what PLAYER gives you: `ITEMS`, e.g. \"1 chip, handy-pack\"")
				note := fs.String("note", "", "a message for PLAYER, shown with the trade")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the other player, e.g. trade offer discord:2 --give \"3 vertebrae\" --take \"1 chip\""); err != nil {
						return err
					}
					to, err := p.resolvePlayer("trade offer", pos[0])
					if err != nil {
						return err
					}
					return p.offerTrade(to, *give, *take, *note)
				}
			},
		},
		"trade accept": tradeAction("accept",
			"accept [ID]   (consent to a trade offered to you: it executes now; without ID, the only open one)"),
		"trade withdraw": tradeAction("withdraw",
			"withdraw [ID]   (withdraw your offer, or decline one made to you; without ID, the only open one)"),
		"trade show": {
			synopsis: "trade show ID", needGame: true,
			setup: noFlags(nArgs(1, "the trade id, e.g. trade show t8143a4fcf6"), func(p *player, pos []string) error {
				return show(p, p.tradeText)(p.c.Trade(p.ctx, p.opts.game, pos[0]))
			}),
		},
		"trades": {
			synopsis: "trades [--player P] [--status open|executed|withdrawn|expired]", needGame: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var f gildedhall.TradeFilter
				fs.StringVar(&f.Player, "player", "", "only trades this `player` is party to (\"me\" for you)")
				fs.StringVar(&f.Status, "status", "", "only trades with this `status`")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					if err := p.meOr(&f.Player); err != nil {
						return err
					}
					switch f.Status {
					case "", gildedhall.TradeOpen, gildedhall.TradeExecuted, gildedhall.TradeWithdrawn, gildedhall.TradeExpired:
					default:
						return usagef("--status must be open, executed, withdrawn or expired, not %q", f.Status)
					}
					return show(p, func(v []gildedhall.Trade) string { return tradesText(p.opts.game, v, p.nameOf()) })(p.c.Trades(p.ctx, p.opts.game, f))
				}
			},
		},
		"grant": {
			synopsis: "grant PLAYER [--vertebrae N] [--chips N] [--card CARD ...] [--holo] [--random-cards N] [--pack KIND ...] --reason R\n\n" +
				"Admins only. Gives currency (a negative N takes), named cards, random cards\n" +
				"and packs; logged with the reason. CARD is \"[N] [holo] NAME\", e.g.\n" +
				"\"7 of Hearts\" or \"2 holo Red Joker\"; KIND is \"[N] KIND\", e.g. \"2 handy-pack\".",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var g gildedhall.Grant
				var cards, packs listFlag
				holo := fs.Bool("holo", false, "make every --card holographic")
				fs.IntVar(&g.Vertebrae, "vertebrae", 0, "Vertebrae to give (negative: take)")
				fs.IntVar(&g.Chips, "chips", 0, "Chips to give (negative: take)")
				fs.Var(&cards, "card", "a card to give by `name`, e.g. \"7 of Hearts\" or \"2 holo Red Joker\" (repeatable)")
				fs.IntVar(&g.RandomCards, "random-cards", 0, "random cards to give, drawn verifiably")
				fs.Var(&packs, "pack", "a pack `kind` to give, e.g. handy-pack or \"2 deck-pack\" (repeatable)")
				fs.StringVar(&g.Reason, "reason", "", "why (required), shown in the log")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the player, e.g. grant discord:2 --vertebrae 5 --reason \"...\""); err != nil {
						return err
					}
					var err error
					if g.Player, err = p.resolvePlayer("grant", pos[0]); err != nil {
						return err
					}
					if g.Vertebrae == 0 && g.Chips == 0 && g.RandomCards == 0 && len(cards) == 0 && len(packs) == 0 {
						return usagef("a grant needs --vertebrae N, --chips N, --card, --random-cards N or --pack")
					}
					if g.RandomCards < 0 {
						return usagef("--random-cards cannot be negative; revoke specific cards instead")
					}
					if strings.TrimSpace(g.Reason) == "" {
						return usagef("say why with --reason: every correction is logged with its reason")
					}
					if err := p.grantItems(&g, cards, packs, *holo); err != nil {
						return err
					}
					return show(p, func(v gildedhall.GrantResult) string { return grantText(g, v, p.nameOf()) })(p.c.Grant(p.ctx, p.idem(), p.opts.game, g))
				}
			},
		},
		"revoke": {
			synopsis: "revoke PLAYER [--vertebrae N] [--chips N] [--card CARD ...] [--pack PACK ...] --reason R\n\n" +
				"Admins only. Takes items from PLAYER, all or nothing; logged with the\n" +
				"reason. CARD and PACK are ids or names as in trade offer's ITEMS:\n\n" + strings.TrimSuffix(itemsHelp, "\n"),
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				var vert, chips int
				var cards, packs listFlag
				var reason string
				fs.IntVar(&vert, "vertebrae", 0, "Vertebrae to take")
				fs.IntVar(&chips, "chips", 0, "Chips to take")
				fs.Var(&cards, "card", "a card to take: an `id` or \"[N] [holo] NAME\" (repeatable)")
				fs.Var(&packs, "pack", "a pack to take: an `id` or \"[N] KIND\" (repeatable)")
				fs.StringVar(&reason, "reason", "", "why (required), shown in the log")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 1, "the player, e.g. revoke discord:2 --chips 1 --reason \"...\""); err != nil {
						return err
					}
					if vert < 0 || chips < 0 {
						return usagef("--vertebrae and --chips take a positive amount")
					}
					if vert == 0 && chips == 0 && len(cards) == 0 && len(packs) == 0 {
						return usagef("a revocation needs --vertebrae N, --chips N, --card or --pack")
					}
					if strings.TrimSpace(reason) == "" {
						return usagef("say why with --reason: every correction is logged with its reason")
					}
					who, err := p.resolvePlayer("revoke", pos[0])
					if err != nil {
						return err
					}
					r := gildedhall.Revoke{Player: who, Reason: reason}
					var terms []itemTerm
					for _, c := range cards {
						t, err := parseItems("--card", c, "card")
						if err != nil {
							return err
						}
						terms = append(terms, t...)
					}
					for _, pk := range packs {
						t, err := parseItems("--pack", pk, "pack")
						if err != nil {
							return err
						}
						terms = append(terms, t...)
					}
					items, err := p.resolve(who, terms)
					if err != nil {
						return err
					}
					items.Vertebrae, items.Chips = vert, chips
					r.Items = items
					return show(p, func(v gildedhall.RevokeResult) string { return revokeText(v, p.nameOf()) })(p.c.Revoke(p.ctx, p.idem(), p.opts.game, r))
				}
			},
		},
		"amend": {
			synopsis: "amend (--patch JSON | --price ITEM=N ...) --reason R\n\n" +
				"Admins only. Changes this game's rule numbers, versioned and logged.\n" +
				"--patch is a change to the ruleset (croupier play ruleset --json shows it):\n" +
				"operations on paths, e.g.\n" +
				"'[{\"op\":\"replace\",\"path\":\"/durations/tradeWindow\",\"value\":\"72h\"}]'\n" +
				"(shop items by id: /shop/chip/price), or a merge patch such as\n" +
				"'{\"durations\":{\"tradeWindow\":\"72h\"}}'; --price random-card=4 changes one\n" +
				"Croupier price and nothing else.",
			needGame: true, needActor: true,
			setup: func(fs *flag.FlagSet) func(*player, []string) error {
				patch := fs.String("patch", "", "a change to the ruleset, as `JSON` operations (or a merge patch)")
				var prices listFlag
				fs.Var(&prices, "price", "`ITEM=N`: a new Croupier price (repeatable)")
				reason := fs.String("reason", "", "why (required), shown in the log")
				return func(p *player, pos []string) error {
					if err := wantArgs(pos, 0, ""); err != nil {
						return err
					}
					if (*patch == "") == (len(prices) == 0) {
						return usagef("give exactly one of --patch JSON or --price ITEM=N")
					}
					if strings.TrimSpace(*reason) == "" {
						return usagef("say why with --reason: every correction is logged with its reason")
					}
					a := game.Amend{Patch: json.RawMessage(*patch), Reason: *reason}
					if *patch != "" && !json.Valid(a.Patch) {
						return usagef("--patch is not valid JSON: %s", *patch)
					}
					if len(prices) > 0 {
						var err error
						if a.Patch, err = p.pricePatch(prices); err != nil {
							return err
						}
					}
					return show(p, func(v game.AmendResult) string { return amendText(p.opts.game, v) })(p.c.Amend(p.ctx, p.idem(), p.opts.game, a))
				}
			},
		},
		"ruleset": {
			synopsis: "ruleset   (this game's rule numbers, amendments applied; --json for all)", needGame: true,
			setup: noFlags(nArgs(0, ""), func(p *player, pos []string) error {
				return show(p, func(v ruleset.Ruleset) string { return rulesetText(p.opts.game, v) })(p.c.Ruleset(p.ctx, p.opts.game))
			}),
		},
	}
}

// statusSetup is status and me: a player's holdings, deck and packs.
func statusSetup(fs *flag.FlagSet) func(*player, []string) error {
	ids := fs.Bool("ids", false, "list every card and pack id (what trades and revocations name)")
	return func(p *player, pos []string) error {
		if len(pos) > 1 {
			return usagef("status takes at most one player, got %q", strings.Join(pos, " "))
		}
		id := ""
		if len(pos) == 1 {
			var err error
			if id, err = p.resolvePlayer("status", pos[0]); err != nil {
				return err
			}
		} else if p.opts.as == "" {
			return usagef("status of whom? name a PLAYER, or say who you are with --as or CROUPIER_AS")
		}
		return show(p, func(v game.PlayerView) string { return statusText(v) + deckText(v, *ids) })(p.c.Player(p.ctx, p.opts.game, id))
	}
}

func tradeAction(action, synopsis string) playCmd {
	return playCmd{
		synopsis: "trade " + synopsis, needGame: true, needActor: true,
		setup: noFlags(nil, func(p *player, pos []string) error {
			if len(pos) > 1 {
				return usagef("expected at most the trade id, e.g. trade %s t8143a4fcf6, got %q", action, strings.Join(pos, " "))
			}
			id := ""
			if len(pos) == 1 {
				id = pos[0]
			} else {
				var err error
				if id, err = p.onlyOpenTrade(action); err != nil {
					return err
				}
			}
			do := p.c.AcceptTrade
			if action == "withdraw" {
				do = p.c.WithdrawTrade
			}
			return show(p, p.tradeText)(do(p.ctx, p.idem(), p.opts.game, id))
		}),
	}
}

// onlyOpenTrade is the trade an id-less accept or withdraw means: the one
// open trade the actor can act on (offered to them, for accept). With none
// or several, the id must be named, and the message lists the candidates.
func (p *player) onlyOpenTrade(action string) (string, error) {
	open, _, err := p.c.Trades(p.ctx, p.opts.game, gildedhall.TradeFilter{Player: p.opts.as, Status: gildedhall.TradeOpen})
	if err != nil {
		return "", err
	}
	var ids []string
	for _, tr := range open {
		if action == "withdraw" || tr.To == p.opts.as {
			ids = append(ids, tr.ID)
		}
	}
	switch len(ids) {
	case 1:
		return ids[0], nil
	case 0:
		if action == "accept" {
			return "", usagef("no open trade is offered to you; nothing to accept")
		}
		return "", usagef("you have no open trade to withdraw")
	}
	return "", usagef("you can %s %d open trades: %s; name one, e.g. trade %s %s", action, len(ids), strings.Join(ids, ", "), action, ids[0])
}

// offerTrade resolves both sides' items against their holders' inventories
// and makes the offer.
func (p *player) offerTrade(to, give, take, note string) error {
	if give == "" && take == "" {
		return usagef("a trade needs --give ITEMS or --take ITEMS (see croupier play help trade offer)")
	}
	var giveTerms, takeTerms []itemTerm
	var err error
	if give != "" {
		if giveTerms, err = parseItems("--give", give, ""); err != nil {
			return err
		}
	}
	if take != "" {
		if takeTerms, err = parseItems("--take", take, ""); err != nil {
			return err
		}
	}
	names := itemNames{}
	o := gildedhall.OfferTrade{To: to, Note: note}
	if o.Give, err = p.resolveNamed(p.opts.as, giveTerms, names); err != nil {
		return err
	}
	if o.Take, err = p.resolveNamed(to, takeTerms, names); err != nil {
		return err
	}
	return show(p, func(tr gildedhall.Trade) string { return tradeText(tr, names, p.nameOf()) })(p.c.OfferTrade(p.ctx, p.idem(), p.opts.game, o))
}

// resolve turns item terms into ids held by holder.
func (p *player) resolve(holder string, terms []itemTerm) (economy.Items, error) {
	return p.resolveNamed(holder, terms, itemNames{})
}

func (p *player) resolveNamed(holder string, terms []itemTerm, names itemNames) (economy.Items, error) {
	h := &holderInventory{id: holder}
	if needsInventory(terms) {
		v, _, err := p.c.Player(p.ctx, p.opts.game, holder)
		if err != nil {
			return economy.Items{}, err
		}
		h.view = gildedhall.ViewOf(v)
		names.add(v)
	}
	return resolveItems(terms, h)
}

// names looks up the parties' inventories to name a trade's card and pack
// ids; best effort, since the names only decorate the ids.
func (p *player) names(tr gildedhall.Trade) itemNames {
	n := itemNames{}
	if len(tr.Give.Cards)+len(tr.Give.Packs)+len(tr.Take.Cards)+len(tr.Take.Packs) == 0 {
		return n
	}
	for _, id := range []string{tr.From, tr.To} {
		if v, _, err := p.c.Player(p.ctx, p.opts.game, id); err == nil {
			n.add(v)
		}
	}
	return n
}

// tradeText is a trade with its card and pack ids named.
func (p *player) tradeText(tr gildedhall.Trade) string { return tradeText(tr, p.names(tr), p.nameOf()) }

// grantItems fills the grant's cards and packs from the flags, spelled the
// way the game's card table and packs spell them (any case is accepted).
func (p *player) grantItems(g *gildedhall.Grant, cards, packs []string, holo bool) error {
	if len(cards) == 0 && len(packs) == 0 {
		return nil
	}
	rs, _, err := p.c.Ruleset(p.ctx, p.opts.game)
	if err != nil {
		return err
	}
	cs, ps, err := itemGrants(&rs, "grant", cards, packs, holo)
	g.Cards, g.Packs = append(g.Cards, cs...), append(g.Packs, ps...)
	return err
}

func packKinds(rs *ruleset.Ruleset) string {
	ks := make([]string, len(rs.Packs))
	for i, p := range rs.Packs {
		ks[i] = p.ID
	}
	return strings.Join(ks, ", ")
}

// pricePatch builds the change of --price ITEM=N: one replace operation
// per price, on the item's own path (/shop/ITEM/price), so it changes
// nothing else whatever is adopted meanwhile (RULINGS R4). The items are
// looked up for a clear usage error and their exact ids; the server checks
// the change again and says what it does.
func (p *player) pricePatch(prices []string) (json.RawMessage, error) {
	rs, _, err := p.c.Ruleset(p.ctx, p.opts.game)
	if err != nil {
		return nil, err
	}
	var ops ruleset.Change
	for _, pr := range prices {
		item, num, ok := strings.Cut(pr, "=")
		n, err := strconv.Atoi(strings.TrimSpace(num))
		if !ok || err != nil || n < 0 {
			return nil, usagef("--price %q is not ITEM=N with N a whole number of at least 0, e.g. random-card=4", pr)
		}
		i := slices.IndexFunc(rs.Shop, func(it ruleset.ShopItem) bool { return strings.EqualFold(it.ID, strings.TrimSpace(item)) })
		if i < 0 {
			ids := make([]string, len(rs.Shop))
			for j, it := range rs.Shop {
				ids[j] = it.ID
			}
			return nil, usagef("--price %q: the Croupier of %s sells no %q; it sells %s", pr, p.opts.game, item, strings.Join(ids, ", "))
		}
		ops = append(ops, ruleset.Op{Op: ruleset.OpReplace, Path: "/shop/" + rs.Shop[i].ID + "/price", Value: json.RawMessage(strconv.Itoa(n))})
	}
	b, err := json.Marshal(ops)
	if err != nil {
		return nil, fmt.Errorf("encoding the price change: %w", err)
	}
	return b, nil
}
