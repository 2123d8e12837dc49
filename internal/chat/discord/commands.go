package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"croupier/internal/chat"
	"croupier/internal/order"
)

// PermManageGuild is the MANAGE_GUILD permission bit: admin commands are
// shown by default only to members who may manage the server (server
// admins can change that per command in Integrations). The game itself
// still refuses anyone who is not one of its admins.
const PermManageGuild Permissions = 32

// groupDescriptions describe top-level names whose commands are
// subcommands ("trade offer" -> /trade offer).
var groupDescriptions = map[string]string{
	"trade":      "Trades between players",
	"components": "Admins' corrections of a player's Ritual Components",
	"case":       "Cases: a turns game's, or a request for justice",
}

// Channel types a channel option accepts: text and announcement channels,
// and forums (where proposals are often posted).
var channelTypes = []int{0, 5, 15}

// AppCommands converts the neutral command table into Discord application
// commands: slash commands (subcommands grouped under their first word),
// then user and message context-menu commands. Hidden commands (run only
// by buttons) are left out.
func AppCommands(cmds []chat.Command) ([]AppCommand, error) {
	var out []AppCommand
	groups := map[string]int{} // top-level name -> index in out
	for _, c := range cmds {
		if c.Hidden {
			continue
		}
		switch c.Kind {
		case chat.UserMenu, chat.MessageMenu:
			typ := CommandUser
			if c.Kind == chat.MessageMenu {
				typ = CommandMessage
			}
			if n := len([]rune(c.Name)); n == 0 || n > maxCommandName {
				return nil, fmt.Errorf("discord: context-menu command %q: names are 1-32 characters", c.Name)
			}
			out = append(out, AppCommand{Name: c.Name, Type: typ})
			continue
		}
		opts, err := appOptions(c)
		if err != nil {
			return nil, err
		}
		top, sub, isSub := strings.Cut(c.Name, " ")
		if err := checkName(top); err != nil {
			return nil, err
		}
		var perms *Permissions
		if c.Admin {
			p := PermManageGuild
			perms = &p
		}
		if !isSub {
			if _, dup := groups[top]; dup {
				return nil, fmt.Errorf("discord: %q is both a command and a group of subcommands", top)
			}
			groups[top] = -1
			out = append(out, AppCommand{Name: top, Type: CommandChatInput, Description: desc(c.Description), Options: opts, DefaultMemberPermissions: perms})
			continue
		}
		if err := checkName(sub); err != nil {
			return nil, err
		}
		i, ok := groups[top]
		if ok && i < 0 {
			return nil, fmt.Errorf("discord: %q is both a command and a group of subcommands", top)
		}
		if !ok {
			d := groupDescriptions[top]
			if d == "" {
				d = top + " commands"
			}
			out = append(out, AppCommand{Name: top, Type: CommandChatInput, Description: desc(d)})
			i = len(out) - 1
			groups[top] = i
		}
		out[i].Options = append(out[i].Options, AppOption{Type: OptSubCommand, Name: sub, Description: desc(c.Description), Options: opts})
	}
	order.Stable(out, func(a, b AppCommand) int {
		if a.Type != b.Type {
			return a.Type - b.Type
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out, nil
}

func checkName(n string) error {
	if n == "" || len([]rune(n)) > maxCommandName || strings.ToLower(n) != n || strings.ContainsAny(n, " \t") {
		return fmt.Errorf("discord: %q is not a slash command name (1-32 lower-case characters, no spaces)", n)
	}
	return nil
}

func desc(s string) string {
	if s == "" {
		return "…"
	}
	return clip(s, maxCommandDesc)
}

func appOptions(c chat.Command) ([]AppOption, error) {
	var req, opt []AppOption
	for _, o := range c.Options {
		if err := checkName(o.Name); err != nil {
			return nil, fmt.Errorf("command %q: %w", c.Name, err)
		}
		a := AppOption{Name: o.Name, Description: desc(o.Description), Required: o.Required, Autocomplete: o.Complete != "" && len(o.Choices) == 0}
		switch o.Type {
		case chat.Integer:
			a.Type = OptInteger
			if o.Min != nil {
				v := float64(*o.Min)
				a.MinValue = &v
			}
			if o.Max != nil {
				v := float64(*o.Max)
				a.MaxValue = &v
			}
		case chat.Boolean:
			a.Type = OptBoolean
		case chat.User:
			a.Type = OptUser
		case chat.Channel:
			a.Type = OptChannel
			a.ChannelTypes = channelTypes
		default:
			a.Type = OptString
		}
		for _, ch := range o.Choices {
			var v any = ch.Value
			if o.Type == chat.Integer {
				n, err := strconv.Atoi(ch.Value)
				if err != nil {
					return nil, fmt.Errorf("command %q option %s: choice %q is not an integer", c.Name, o.Name, ch.Value)
				}
				v = n
			}
			name := clip(ch.Label, maxChoiceName)
			if name == "" {
				name = clip(ch.Value, maxChoiceName) // Discord refuses a choice without a name
			}
			a.Choices = append(a.Choices, AppChoice{Name: name, Value: v})
		}
		// Discord requires the required options first.
		if o.Required {
			req = append(req, a)
		} else {
			opt = append(opt, a)
		}
	}
	return append(req, opt...), nil
}

// canonical is the comparable form of a command list: what Discord keeps
// of it, in a fixed order, encoded. Listing adds fields (id, version...)
// that the AppCommand type drops on decoding.
func canonical(cmds []AppCommand) ([]byte, error) {
	b, err := json.Marshal(cmds)
	if err != nil {
		return nil, err
	}
	round := []AppCommand{}
	if err := json.Unmarshal(b, &round); err != nil {
		return nil, err
	}
	if round == nil {
		round = []AppCommand{}
	}
	for i := range round {
		if round[i].Type == 0 {
			round[i].Type = CommandChatInput
		}
	}
	order.Stable(round, func(a, b AppCommand) int {
		if a.Type != b.Type {
			return a.Type - b.Type
		}
		return strings.Compare(a.Name, b.Name)
	})
	return json.Marshal(round)
}

// Registration is what Register did.
type Registration struct {
	Commands int
	// Changed is false when the registered commands already matched: no
	// overwrite was sent.
	Changed bool
}

// Register makes the application's commands (global, or of one guild for
// instant updates while testing) equal to cmds: it lists them first and
// sends the bulk overwrite only when they differ, so a second run is a
// no-op.
func Register(ctx context.Context, c *Client, appID, guild string, cmds []AppCommand) (Registration, error) {
	want, err := canonical(cmds)
	if err != nil {
		return Registration{}, err
	}
	cur, err := c.Commands(ctx, appID, guild)
	if err != nil {
		return Registration{}, err
	}
	have, err := canonical(cur)
	if err != nil {
		return Registration{}, err
	}
	if bytes.Equal(want, have) {
		return Registration{Commands: len(cmds)}, nil
	}
	if err := c.OverwriteCommands(ctx, appID, guild, cmds); err != nil {
		return Registration{}, err
	}
	return Registration{Commands: len(cmds), Changed: true}, nil
}
