package chat

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"croupier/internal/game"
	"croupier/internal/rules/governance"
)

// Governance (RULINGS G1-G5): proposals, requests for justice, rulings,
// votes of confidence, the Judge's office and Judge elections. Votes are the
// 👍/👎 reactions on chat messages, so the commands tie each record to a
// message: the context-menu commands ("Submit as proposal", "Submit as
// request for justice", "Stand for Judge") to the message they are used on,
// the slash commands to a message named by its link or id.
func governanceCommands() []Command {
	msgOpt := func(what string) Option {
		return Option{Name: "message", Required: true,
			Description: "The " + what + " message: its link (Copy Message Link) or its id in this channel"}
	}
	cmds := []Command{
		Command{Name: "propose", Runs: []string{"proposal-submit"}, Description: "Submit your message as a proposal",
			Options: []Option{msgOpt("proposal"),
				{Name: "class", Description: "standard (voted on during the next phase) or urgent (48 hours; reputable players)",
					Choices: []Choice{{Label: "standard", Value: string(governance.Standard)}, {Label: "urgent", Value: string(governance.Urgent)}}},
				{Name: "title", Description: "A short title for announcements"},
				{Name: "text", Description: "The proposal's text (a copy of the message)"}},
			Handler: propose},
		Command{Name: "withdraw", Runs: []string{"proposal-withdraw"}, Description: "Withdraw your proposal",
			Options: []Option{{Name: "proposal", Description: "The proposal's id", Required: true}}, Handler: withdraw},
		Command{Name: "proposals", Runs: []string{"proposals"}, Past: true, Description: "Proposals, votes and deadlines",
			Options: []Option{{Name: "status", Description: "Which proposals (default open)", Choices: []Choice{
				{Label: "open", Value: string(governance.StatusOpen)}, {Label: "adopted", Value: string(governance.StatusAdopted)},
				{Label: "failed", Value: string(governance.StatusFailed)}, {Label: "withdrawn", Value: string(governance.StatusWithdrawn)},
				{Label: "all", Value: "all"}}}},
			Handler: proposals},
		Command{Name: "rfj", Runs: []string{"justice-request"}, Description: "Request justice from the Judge",
			Options: []Option{
				{Name: "kind", Description: "statement or question", Required: true, Choices: []Choice{
					{Label: "statement", Value: string(governance.KindStatement)}, {Label: "question", Value: string(governance.KindQuestion)}}},
				{Name: "text", Description: "The statement or question", Required: true},
				msgOpt("request")},
			Handler: rfj},
		Command{Name: "rule", Runs: []string{"ruling"}, Description: "Rule on a request (the Judge)",
			Options: []Option{{Name: "request", Description: "The request's id", Required: true},
				{Name: "answer", Description: "TRUE, FALSE, or the answer", Required: true}},
			Handler: rule},
		Command{Name: "overturn", Runs: []string{"ruling-overturn"}, Description: "Overturn your ruling (the Judge)",
			Options: []Option{{Name: "ruling", Description: "The ruling's id", Required: true}}, Handler: overturn},
		Command{Name: "confidence", Runs: []string{"confidence-open"}, Description: "Vote of confidence on a ruling",
			Options: []Option{{Name: "ruling", Description: "The ruling's id", Required: true}, msgOpt("poll")},
			Handler: confidence},
		Command{Name: "rulings", Runs: []string{"rulings"}, Past: true, Description: "Past rulings", Handler: rulings},
		Command{Name: "judge", Runs: []string{"judge"}, Past: true, Description: "The Judge and their queue", Handler: judge},
		Command{Name: "assent-removal", Runs: []string{"judge-removal-assent"}, Description: "Assent to removing the Judge", Handler: assentRemoval},
		Command{Name: "resign", Runs: []string{"judge-resign"}, Description: "Resign as Judge", Handler: resign},
		Command{Name: "stand", Runs: []string{"judge-candidacy"}, Description: "Stand for Judge this week",
			Options: []Option{msgOpt("candidacy")}, Handler: stand},
		Command{Name: "Submit as proposal", Runs: []string{"proposal-submit"}, Kind: MessageMenu, Description: "Submit this message of yours as a proposal",
			Handler: proposeMessage},
		Command{Name: "Submit as request for justice", Runs: []string{"justice-request"}, Kind: MessageMenu,
			Description: "Submit this message of yours as a request for justice (a question if it ends with ?)",
			Handler:     rfjMessage},
		Command{Name: "Stand for Judge", Runs: []string{"judge-candidacy"}, Kind: MessageMenu, Description: "Stand for Judge this week with this message of yours",
			Handler: standMessage},
	}
	return cmds
}

// discordLink matches a Discord message link's channel and message ids.
var discordLink = regexp.MustCompile(`^https?://(?:[a-z]+\.)?discord(?:app)?\.com/channels/[^/]+/([0-9]+)/([0-9]+)/?$`)

// messageOption reads the message an option names: a Discord message link,
// "channel/message", or a message id in the invocation's channel.
func messageOption(inv *Invocation, name string) (game.MessageRef, error) {
	v := inv.Opt(name)
	ref := game.MessageRef{Platform: inv.Platform, Channel: inv.Channel, Message: v}
	if m := discordLink.FindStringSubmatch(v); m != nil {
		ref.Channel, ref.Message = m[1], m[2]
	} else if c, id, ok := strings.Cut(v, "/"); ok && !strings.Contains(v, ":") {
		ref.Channel, ref.Message = c, id
	}
	if ref.Channel == "" || ref.Message == "" || strings.ContainsAny(ref.Message, " /") {
		return ref, refusef("invalid_message", "Option %s must name a message: its link (Copy Message Link) or its id in this channel, not %q.", name, v)
	}
	return ref, nil
}

// targetMessage is the message a context-menu command was used on; it must
// be the caller's own (a proposal, request or candidacy is its author's).
func targetMessage(inv *Invocation, what string) (game.MessageRef, error) {
	if inv.Target == nil || inv.Target.ID == "" {
		return game.MessageRef{}, refusef("invalid_message", "Use this command on a message (right-click it, then Apps).")
	}
	if inv.Target.Author != "" && inv.Target.Author != inv.User {
		return game.MessageRef{}, refusef("not_your_message", "Only the author of a message can submit it as their %s; ask them to.", what)
	}
	ch := inv.Target.Channel
	if ch == "" {
		ch = inv.Channel
	}
	return game.MessageRef{Platform: inv.Platform, Channel: ch, Message: inv.Target.ID}, nil
}

func propose(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := messageOption(inv, "message")
	if err != nil {
		return nil, err
	}
	return submitProposal(ctx, s, inv, game.SubmitProposal{Message: m, Class: governance.Class(inv.Opt("class")),
		Title: inv.Opt("title"), Text: inv.Opt("text")})
}

func proposeMessage(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := targetMessage(inv, "proposal")
	if err != nil {
		return nil, err
	}
	return submitProposal(ctx, s, inv, game.SubmitProposal{Message: m, Text: clip(inv.Target.Content, game.MaxProposalText)})
}

func submitProposal(ctx context.Context, s *game.Service, inv *Invocation, p game.SubmitProposal) (*Reply, error) {
	_, r, err := submitted(ctx, s, inv, p)
	return r, err
}

// submitted submits p and returns the proposal as submitted with its reply.
func submitted(ctx context.Context, s *game.Service, inv *Invocation, p game.SubmitProposal) (*game.ProposalView, *Reply, error) {
	v, err := decoded[*game.ProposalView](s.SubmitProposal(ctx, req(inv), p))
	if err != nil {
		return nil, nil, err
	}
	return v, &Reply{Title: "Proposal " + v.ID,
		Text: fmt.Sprintf("<@%s>'s %s proposal is open: react 👍 or 👎 on its message. Voting runs from %s to %s; the reactions present then decide (reacting both counts against; an edited or deleted message never takes effect).",
			UserID(inv.Platform, v.Author), v.Class, when(v.VotingStart), when(v.VotingEnd))}, nil
}

func withdraw(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	v, err := decoded[*game.ProposalView](s.WithdrawProposal(ctx, req(inv), inv.Opt("proposal")))
	if err != nil {
		return nil, err
	}
	return &Reply{Text: fmt.Sprintf("Proposal %s is withdrawn.", v.ID)}, nil
}

func proposals(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	ps, err := s.Proposals(ctx, inv.Game, statusFilter(inv, string(governance.StatusOpen)))
	if err != nil {
		return nil, err
	}
	who := whoFunc(ctx, s, inv)
	return listReply("Proposals", "No proposals.", ps, func(p game.ProposalView) string { return proposalLine(p, who) }), nil
}

// proposalLine is one proposal of a list, naming its author as who does.
func proposalLine(p game.ProposalView, who func(string) string) string {
	title := p.Title
	if title == "" {
		title = clip(p.Text, 60)
	}
	s := fmt.Sprintf("**%s** %s by %s (%s): %s", p.ID, title, who(p.Author), p.Class, p.Status)
	switch {
	case p.Live != nil:
		s += fmt.Sprintf(", now %d 👍 / %d 👎 (%s), voting ends %s", p.Live.For, p.Live.Against, popular(p.Live.Popular), when(p.VotingEnd))
	case p.Status == governance.StatusOpen:
		s += ", voting ends " + when(p.VotingEnd)
	case p.Result != nil:
		s += ": " + p.Result.Reason
	}
	return s
}

func popular(b bool) string {
	if b {
		return "popular"
	}
	return "not popular"
}

func when(t time.Time) string { return t.UTC().Format("Mon 2 Jan 15:04 UTC") }

func rfj(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := messageOption(inv, "message")
	if err != nil {
		return nil, err
	}
	return requestJustice(ctx, s, inv, game.RequestJustice{Kind: governance.RequestKind(inv.Opt("kind")), Text: inv.Opt("text"), Message: m})
}

// rfjMessage files the message as a request: a question if it ends with a
// question mark, else a statement for the Judge to rule TRUE or FALSE.
func rfjMessage(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := targetMessage(inv, "request for justice")
	if err != nil {
		return nil, err
	}
	text := strings.TrimSpace(inv.Target.Content)
	kind := governance.KindStatement
	if strings.HasSuffix(text, "?") {
		kind = governance.KindQuestion
	}
	return requestJustice(ctx, s, inv, game.RequestJustice{Kind: kind, Text: clip(text, game.MaxJusticeText), Message: m})
}

func requestJustice(ctx context.Context, s *game.Service, inv *Invocation, r game.RequestJustice) (*Reply, error) {
	v, err := decoded[*game.JusticeRecord](s.RequestJustice(ctx, req(inv), r))
	if err != nil {
		return nil, err
	}
	return &Reply{Title: "Request for justice " + v.Request.ID,
		Text: fmt.Sprintf("<@%s> asks the Judge (%s): %s", UserID(inv.Platform, v.Request.Author), v.Request.Kind, clip(v.Request.Text, 1500))}, nil
}

func rule(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	return rulingReply(ctx, s, inv, "Ruling")(s.Rule(ctx, req(inv), game.RuleOn{Request: inv.Opt("request"), Answer: inv.Opt("answer")}))
}

func overturn(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	return rulingReply(ctx, s, inv, "Overturned")(s.Overturn(ctx, req(inv), inv.Opt("ruling")))
}

func confidence(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := messageOption(inv, "message")
	if err != nil {
		return nil, err
	}
	return rulingReply(ctx, s, inv, "Vote of confidence")(s.OpenConfidence(ctx, req(inv), game.OpenConfidence{Ruling: inv.Opt("ruling"), Poll: m}))
}

// rulingReply describes, under title, the ruling a command returns; it is
// curried so the command's results feed it directly.
func rulingReply(ctx context.Context, s *game.Service, inv *Invocation, title string) func(*game.Result, error) (*Reply, error) {
	return func(res *game.Result, err error) (*Reply, error) {
		v, err := decoded[*game.RulingView](res, err)
		if err != nil {
			return nil, err
		}
		return &Reply{Title: title + " " + v.ID, Text: rulingLine(*v, whoFunc(ctx, s, inv))}, nil
	}
}

// rulingLine is one ruling, naming its Judge as who does.
func rulingLine(r game.RulingView, who func(string) string) string {
	s := fmt.Sprintf("**%s** on %q: **%s** (Judge %s, %s)", r.ID, clip(r.Text, 200), clip(r.Answer, 300),
		who(r.Judge), when(r.At))
	if r.Overturned {
		s += fmt.Sprintf("; overturned by %s, no bearing", who(r.OverturnedBy))
	}
	if c := r.Confidence; c != nil {
		switch c.Status {
		case governance.ConfidenceOpen:
			s += fmt.Sprintf("; vote of confidence open until %s (👍 affirm, 👎 overturn)", when(c.EndsAt))
		default:
			s += "; vote of confidence " + c.Status
		}
	}
	return s
}

func rulings(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	rs, err := s.Rulings(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	who := whoFunc(ctx, s, inv)
	return listReply("Rulings", "No rulings yet.", rs, func(r game.RulingView) string { return rulingLine(r, who) }), nil
}

func judge(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	js, err := s.Judge(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	queue, err := s.JudgeQueue(ctx, inv.Game)
	if err != nil {
		return nil, err
	}
	who := whoFunc(ctx, s, inv)
	r := officeReply(who, js)
	r.Ephemeral = true
	ls := []string{r.Text}
	for _, q := range queue {
		ls = append(ls, fmt.Sprintf("**%s** (%s by %s): %s", q.Request.ID, q.Request.Kind, who(q.Request.Author), clip(q.Request.Text, 200)))
	}
	if len(queue) == 0 {
		ls = append(ls, "No request is waiting for a ruling.")
	}
	r.Text = lines(ls)
	return r, nil
}

// officeReply is the Judge's office, naming the Judge as who does.
func officeReply(who func(string) string, js game.JudgeState) *Reply {
	if js.Judge == "" {
		return &Reply{Title: "The Judge", Text: "There is no Judge."}
	}
	text := fmt.Sprintf("The Judge is %s, since %s.", who(js.Judge), when(js.Since))
	if n := len(js.RemovalAssents); n > 0 {
		text += fmt.Sprintf(" %s assented to their removal (two remove them).", plural(n, "player has", "players have"))
	}
	return &Reply{Title: "The Judge", Text: text}
}

func assentRemoval(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	js, err := decoded[*game.JudgeState](s.AssentRemoval(ctx, req(inv)))
	if err != nil {
		return nil, err
	}
	return officeReply(whoFunc(ctx, s, inv), *js), nil
}

func resign(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	if _, err := s.Resign(ctx, req(inv)); err != nil {
		return nil, err
	}
	return &Reply{Title: "The Judge", Text: fmt.Sprintf("<@%s> resigned as Judge; the office is empty until an election.", UserID(inv.Platform, inv.User))}, nil
}

func stand(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := messageOption(inv, "message")
	if err != nil {
		return nil, err
	}
	return standFor(ctx, s, inv, m)
}

func standMessage(ctx context.Context, s *game.Service, inv *Invocation) (*Reply, error) {
	m, err := targetMessage(inv, "candidacy")
	if err != nil {
		return nil, err
	}
	return standFor(ctx, s, inv, m)
}

func standFor(ctx context.Context, s *game.Service, inv *Invocation, m game.MessageRef) (*Reply, error) {
	c, err := decoded[*governance.Candidacy](s.StandForJudge(ctx, req(inv), game.StandForJudge{Message: m}))
	if err != nil {
		return nil, err
	}
	return &Reply{Title: "Candidacy for Judge",
		Text: fmt.Sprintf("<@%s> stands for Judge in %s: react 👍 or 👎 on their message. When the week ends, the popular candidacy with the most 👍 wins.",
			UserID(inv.Platform, c.Candidate), c.Week)}, nil
}
