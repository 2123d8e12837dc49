package discord

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"croupier/internal/chat"
)

// Platform is the chat platform name of this adapter: identities are
// "discord:<user id>", bindings "discord:<guild id>".
const Platform = "discord"

// selectOption is the action option naming which option a select's chosen
// value fills (see chat.Select).
const selectOption = "_sel"

// invocation maps a command, autocomplete or component interaction to the
// neutral layer's Invocation. For autocomplete it also returns the focused
// option's name and what the user has typed.
func invocation(in *Interaction) (inv *chat.Invocation, focused, partial string, err error) {
	inv = &chat.Invocation{Platform: Platform, Guild: in.GuildID, Channel: in.ChannelID, Key: in.ID, Options: map[string]string{}}
	u := in.User
	if in.Member != nil && in.Member.User != nil {
		u = in.Member.User
		inv.UserName = in.Member.Nick
	}
	if u == nil || u.ID == "" {
		return nil, "", "", fmt.Errorf("the interaction names no user")
	}
	inv.User = chat.Identity(Platform, u.ID)
	if inv.UserName == "" {
		inv.UserName = u.GlobalName
	}
	if inv.UserName == "" {
		inv.UserName = u.Username
	}
	if in.ID == "" {
		return nil, "", "", fmt.Errorf("the interaction has no id")
	}

	switch in.Type {
	case InteractionComponent:
		var d ComponentData
		if err := json.Unmarshal(in.Data, &d); err != nil {
			return nil, "", "", fmt.Errorf("component data: %v", err)
		}
		a, err := chat.DecodeAction(d.CustomID)
		if err != nil {
			return nil, "", "", err
		}
		inv.Command, inv.Options, inv.Component = a.Command, a.Options, true
		if m := in.Message; m != nil && m.ID != "" {
			inv.Message = &chat.MessageRef{ID: m.ID, Channel: m.ChannelID, Private: m.Flags&FlagEphemeral != 0}
			if inv.Message.Channel == "" {
				inv.Message.Channel = in.ChannelID
			}
		}
		if opt, ok := a.Options[selectOption]; ok {
			delete(inv.Options, selectOption)
			// A multi-select's choices arrive together, joined as the
			// comma-separated option chat.Select promises.
			if len(d.Values) > 0 {
				inv.Options[opt] = strings.Join(d.Values, ",")
			}
		}
		return inv, "", "", nil
	case InteractionCommand, InteractionAutocomplete:
	default:
		return nil, "", "", fmt.Errorf("interaction type %d carries no command", in.Type)
	}

	var d CommandData
	if err := json.Unmarshal(in.Data, &d); err != nil {
		return nil, "", "", fmt.Errorf("command data: %v", err)
	}
	if d.Name == "" {
		return nil, "", "", fmt.Errorf("the command has no name")
	}
	switch d.Type {
	case CommandUser:
		inv.Command = d.Name
		if d.TargetID == "" {
			return nil, "", "", fmt.Errorf("the user command has no target")
		}
		inv.TargetUser = chat.Identity(Platform, d.TargetID)
		return inv, "", "", nil
	case CommandMessage:
		inv.Command = d.Name
		if d.TargetID == "" {
			return nil, "", "", fmt.Errorf("the message command has no target")
		}
		ref := &chat.MessageRef{ID: d.TargetID, Channel: in.ChannelID}
		if d.Resolved != nil {
			if m, ok := d.Resolved.Messages[d.TargetID]; ok {
				ref.Content = m.Content
				if m.ChannelID != "" {
					ref.Channel = m.ChannelID
				}
				if m.Author.ID != "" {
					ref.Author = chat.Identity(Platform, m.Author.ID)
				}
			}
		}
		inv.Target = ref
		return inv, "", "", nil
	}

	// A slash command: walk subcommand groups and subcommands into the path.
	path := []string{d.Name}
	opts := d.Options
	for depth := 0; len(opts) == 1 && (opts[0].Type == OptSubCommand || opts[0].Type == OptSubCommandGroup); depth++ {
		if depth > 2 {
			return nil, "", "", fmt.Errorf("subcommands nest too deep")
		}
		path = append(path, opts[0].Name)
		opts = opts[0].Options
	}
	inv.Command = strings.Join(path, " ")
	for _, o := range opts {
		v, err := optionValue(o)
		if err != nil {
			return nil, "", "", fmt.Errorf("option %s: %v", o.Name, err)
		}
		if o.Focused {
			focused, partial = o.Name, v
			if o.Type == OptUser {
				partial = chat.UserID(Platform, v)
			}
		}
		inv.Options[o.Name] = v
	}
	return inv, focused, partial, nil
}

// optionValue renders an option's value as the neutral layer's string:
// numbers in decimal, users as identities, the rest as sent.
func optionValue(o OptionData) (string, error) {
	raw := bytes.TrimSpace(o.Value)
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var v string
	switch raw[0] {
	case '"':
		if err := json.Unmarshal(raw, &v); err != nil {
			return "", err
		}
	case 't', 'f':
		var b bool
		if err := json.Unmarshal(raw, &b); err != nil {
			return "", err
		}
		v = strconv.FormatBool(b)
	default:
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return "", fmt.Errorf("not a string, number or boolean")
		}
		v = n.String()
	}
	if o.Type == OptUser && snowflake(v) {
		// Discord's user picker sends the user's id; any other text (a
		// relay's mention or name) is the router's to resolve.
		v = chat.Identity(Platform, v)
	}
	return v, nil
}

// focusedType is the type of the option an autocomplete interaction asks
// about (OptString when none is focused): its suggestions take that type.
func focusedType(in *Interaction) int {
	var d CommandData
	if err := json.Unmarshal(in.Data, &d); err != nil {
		return OptString
	}
	opts := d.Options
	for depth := 0; depth <= 2 && len(opts) == 1 && (opts[0].Type == OptSubCommand || opts[0].Type == OptSubCommandGroup); depth++ {
		opts = opts[0].Options
	}
	for _, o := range opts {
		if o.Focused {
			return o.Type
		}
	}
	return OptString
}

// snowflake reports whether v is a Discord id (digits only).
func snowflake(v string) bool {
	if v == "" || len(v) > 20 {
		return false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
