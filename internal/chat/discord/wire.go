// Package discord is Croupier's Discord integration over HTTP interactions
// (no gateway): an http.Handler for POST /discord/interactions that verifies
// Discord's Ed25519 signature, answers PING, turns slash commands,
// context-menu commands, autocomplete and button/select presses into
// chat.Invocations for the platform-neutral layer (internal/chat), and
// renders its replies as Discord messages and components. Replies come
// within Discord's 3 seconds, or are deferred and finished by a follow-up
// edit through a Deferrer. It also converts the command table into
// Discord's application commands and registers them (bulk overwrite,
// skipped when unchanged).
//
// The wire types below are the subset of Discord's documented API v10
// objects Croupier reads and writes (Interaction, Interaction Response,
// Message Components, Application Command). They are declared here rather
// than taken from github.com/disgoorg/disgo: the subset is small, stays
// fully under the fuzz target, and keeps the Lambda binary and its cold
// start small.
package discord

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Interaction types (Discord: Interaction Object, Interaction Type).
const (
	InteractionPing         = 1
	InteractionCommand      = 2
	InteractionComponent    = 3
	InteractionAutocomplete = 4
	InteractionModalSubmit  = 5
)

// Interaction callback types (Discord: Interaction Response Object).
const (
	ResponsePong                   = 1
	ResponseMessage                = 4 // CHANNEL_MESSAGE_WITH_SOURCE
	ResponseDeferredMessage        = 5 // DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE
	ResponseDeferredUpdate         = 6 // DEFERRED_UPDATE_MESSAGE
	ResponseUpdateMessage          = 7 // UPDATE_MESSAGE
	ResponseAutocompleteResult     = 8 // APPLICATION_COMMAND_AUTOCOMPLETE_RESULT
	FlagEphemeral                  = 64
	maxContent                     = 2000
	maxEmbedFields                 = 25
	maxEmbeds                      = 10
	maxButtonsPerRow               = 5
	maxRows                        = 5
	maxSelectOptions               = 25
	maxLabel                       = 80
	maxChoiceName                  = 100
	maxFieldName, maxFieldValue    = 256, 1024
	maxEmbedTitle, maxEmbedTotal   = 256, 6000
	maxCommandDesc, maxCommandName = 100, 32
)

// Application command types.
const (
	CommandChatInput = 1
	CommandUser      = 2
	CommandMessage   = 3
)

// Application command option types.
const (
	OptSubCommand      = 1
	OptSubCommandGroup = 2
	OptString          = 3
	OptInteger         = 4
	OptBoolean         = 5
	OptUser            = 6
	OptChannel         = 7
	OptRole            = 8
	OptMentionable     = 9
	OptNumber          = 10
)

// Interaction is an incoming interaction.
type Interaction struct {
	ID            string          `json:"id"`
	ApplicationID string          `json:"application_id"`
	Type          int             `json:"type"`
	Data          json.RawMessage `json:"data,omitempty"`
	GuildID       string          `json:"guild_id,omitempty"`
	ChannelID     string          `json:"channel_id,omitempty"`
	Member        *Member         `json:"member,omitempty"`
	User          *User           `json:"user,omitempty"`
	Token         string          `json:"token"`
	Version       int             `json:"version"`
	// Message is the message a pressed component is on.
	Message *Message `json:"message,omitempty"`
}

// Member is a guild member (the invoking user inside a guild).
type Member struct {
	User *User  `json:"user,omitempty"`
	Nick string `json:"nick,omitempty"`
}

// User is a Discord user.
type User struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name,omitempty"`
}

// CommandData is the data of an application command or autocomplete
// interaction.
type CommandData struct {
	ID       string       `json:"id"`
	Name     string       `json:"name"`
	Type     int          `json:"type"`
	Options  []OptionData `json:"options,omitempty"`
	TargetID string       `json:"target_id,omitempty"`
	Resolved *Resolved    `json:"resolved,omitempty"`
}

// OptionData is one option value sent with a command.
type OptionData struct {
	Name    string          `json:"name"`
	Type    int             `json:"type"`
	Value   json.RawMessage `json:"value,omitempty"`
	Options []OptionData    `json:"options,omitempty"`
	Focused bool            `json:"focused,omitempty"`
}

// Resolved carries the objects an interaction's ids refer to.
type Resolved struct {
	Users    map[string]User    `json:"users,omitempty"`
	Messages map[string]Message `json:"messages,omitempty"`
}

// Message is a Discord message (the target of a message command, or the
// message a pressed component is on).
type Message struct {
	ID        string `json:"id"`
	ChannelID string `json:"channel_id"`
	Author    User   `json:"author"`
	Content   string `json:"content"`
	// Flags has FlagEphemeral on a message only its recipient sees.
	Flags int `json:"flags,omitempty"`
}

// ComponentData is the data of a button or select interaction.
type ComponentData struct {
	CustomID      string   `json:"custom_id"`
	ComponentType int      `json:"component_type"`
	Values        []string `json:"values,omitempty"`
}

// Response is an interaction response.
type Response struct {
	Type int           `json:"type"`
	Data *ResponseData `json:"data,omitempty"`
}

// ResponseData is a message (or autocomplete choices) in a response, and
// the body of a follow-up edit.
type ResponseData struct {
	Content         *string          `json:"content,omitempty"`
	Flags           int              `json:"flags,omitempty"`
	Embeds          []Embed          `json:"embeds,omitempty"`
	Components      *[]Component     `json:"components,omitempty"`
	AllowedMentions *AllowedMentions `json:"allowed_mentions,omitempty"`
	Choices         []AppChoice      `json:"choices,omitempty"`
}

// Embed is a message embed.
type Embed struct {
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	Color       int          `json:"color,omitempty"`
	Fields      []EmbedField `json:"fields,omitempty"`
	Image       *EmbedImage  `json:"image,omitempty"`
}

// EmbedImage is an embed's picture (a public https URL; PNG, not SVG).
type EmbedImage struct {
	URL string `json:"url"`
}

// EmbedField is one field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// Component is an action row, button or string select.
type Component struct {
	Type        int            `json:"type"`
	Components  []Component    `json:"components,omitempty"`
	Style       int            `json:"style,omitempty"`
	Label       string         `json:"label,omitempty"`
	CustomID    string         `json:"custom_id,omitempty"`
	Placeholder string         `json:"placeholder,omitempty"`
	Options     []SelectOption `json:"options,omitempty"`
	// MinValues and MaxValues bound a multi-select's choices (Discord's
	// default, both 1, when absent).
	MinValues int `json:"min_values,omitempty"`
	MaxValues int `json:"max_values,omitempty"`
}

// Component types and button styles.
const (
	ComponentActionRow    = 1
	ComponentButton       = 2
	ComponentStringSelect = 3
)

// SelectOption is one entry of a string select.
type SelectOption struct {
	Label string `json:"label"`
	Value string `json:"value"`
}

// AllowedMentions says whom a message may ping.
type AllowedMentions struct {
	Parse []string `json:"parse"`
}

// AppCommand is an application command as registered (and as listed back
// by GET: fields Discord adds, such as id and version, are ignored).
type AppCommand struct {
	Name                     string       `json:"name"`
	Type                     int          `json:"type"`
	Description              string       `json:"description"`
	Options                  []AppOption  `json:"options,omitempty"`
	DefaultMemberPermissions *Permissions `json:"default_member_permissions,omitempty"`
}

// Permissions is a permission bit set. Discord's OpenAPI description
// types default_member_permissions as an integer, so it is sent as a JSON
// number; Discord's reference docs and its answers write the bit set as a
// decimal string ("32"), which is read too, so a listed command compares
// equal to the one sent.
type Permissions uint64

// UnmarshalJSON reads a number or a decimal string.
func (p *Permissions) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		return fmt.Errorf("permissions %s are not a decimal bit set", b)
	}
	*p = Permissions(n)
	return nil
}

// AppOption is an application command option (or subcommand).
type AppOption struct {
	Type         int         `json:"type"`
	Name         string      `json:"name"`
	Description  string      `json:"description"`
	Required     bool        `json:"required,omitempty"`
	Choices      []AppChoice `json:"choices,omitempty"`
	Autocomplete bool        `json:"autocomplete,omitempty"`
	Options      []AppOption `json:"options,omitempty"`
	MinValue     *float64    `json:"min_value,omitempty"`
	MaxValue     *float64    `json:"max_value,omitempty"`
	ChannelTypes []int       `json:"channel_types,omitempty"`
}

// AppChoice is an option choice or an autocomplete suggestion.
type AppChoice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}
