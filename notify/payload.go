package notify

import (
	"encoding/json"
	"strings"
	"time"
)

// JSONSchema is the version of the plain JSON payload; see the package doc.
const JSONSchema = 1

func (w *Webhook) payload(m Message) ([]byte, error) {
	switch w.format {
	case FormatSlack:
		return json.Marshal(slackPayload(m))
	case FormatDiscord:
		return json.Marshal(discordPayload(m))
	case FormatTelegram:
		return json.Marshal(telegramPayload(m, w.chatID))
	case FormatAuto, FormatJSON:
	}
	return json.Marshal(jsonPayload(m))
}

// Slack: the top-level text is what the phone's notification shows; the
// blocks are what the channel shows. Both are mrkdwn, in which &, < and >
// must be escaped or an agent's title could ping a channel.
type slackMessage struct {
	Text   string       `json:"text"`
	Blocks []slackBlock `json:"blocks"`
}

type slackBlock struct {
	Type string    `json:"type"`
	Text slackText `json:"text"`
}

type slackText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

func slackPayload(m Message) slackMessage {
	lines := m.Lines()
	for i, l := range lines {
		lines[i] = "• " + slackEscape(l)
	}
	return slackMessage{
		Text: slackEscape(m.Summary()),
		Blocks: []slackBlock{
			{Type: "header", Text: slackText{Type: "plain_text", Text: cut(m.Title(), 150)}},
			{Type: "section", Text: slackText{Type: "mrkdwn", Text: cut(strings.Join(lines, "\n"), 3000)}},
		},
	}
}

var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func slackEscape(s string) string { return slackEscaper.Replace(s) }

// Discord: content is the notification line, the embed lists the events.
// allowed_mentions with no parse keeps @everyone in a title from pinging.
type discordMessage struct {
	Username        string          `json:"username"`
	Content         string          `json:"content"`
	Embeds          []discordEmbed  `json:"embeds"`
	AllowedMentions discordMentions `json:"allowed_mentions"`
}

type discordEmbed struct {
	Description string `json:"description"`
	Color       int    `json:"color"`
	Timestamp   string `json:"timestamp,omitempty"`
}

type discordMentions struct {
	Parse []string `json:"parse"`
}

// kindColors are the embed's left-edge colour: red for what needs a
// person now, amber for trouble, green for good news.
var kindColors = [kindCount]int{
	KindNeedsInput: 0xE5484D, KindStalled: 0xF5A524, KindLooping: 0xF5A524, KindNoProgress: 0xF5A524,
	KindBlocked: 0xE5484D, KindFinished: 0x30A46C, KindListCreated: 0x0090FF, KindItemCompleted: 0x30A46C,
	KindStepBlocked: 0xE5484D, KindTaskComplete: 0x30A46C, KindPlanComplete: 0x30A46C,
}

func discordPayload(m Message) discordMessage {
	lines := m.Lines()
	for i, l := range lines {
		lines[i] = "• " + discordEscape(l)
	}
	urgent := kindCount - 1
	for _, e := range m.Events {
		urgent = min(urgent, e.Kind)
	}
	embed := discordEmbed{Description: cut(strings.Join(lines, "\n"), 4096), Color: kindColors[urgent]}
	if len(m.Events) > 0 {
		embed.Timestamp = m.Events[0].Since.UTC().Format(time.RFC3339)
	}
	return discordMessage{
		Username: "Tally", Content: cut(discordEscape(m.Summary()), 2000),
		Embeds: []discordEmbed{embed}, AllowedMentions: discordMentions{Parse: []string{}},
	}
}

// discordEscaper escapes the markdown that works mid-line; quotes and
// headings work only at a line's start, where Tally puts "• ".
var discordEscaper = strings.NewReplacer(
	`\`, `\\`, "*", `\*`, "_", `\_`, "~", `\~`, "`", "\\`", "|", `\|`, "[", `\[`, "]", `\]`)

func discordEscape(s string) string { return discordEscaper.Replace(s) }

// Telegram: sendMessage with plain text (no parse_mode, so nothing in a
// title is markup).
type telegramMessage struct {
	ChatID      string          `json:"chat_id"`
	Text        string          `json:"text"`
	LinkPreview telegramPreview `json:"link_preview_options"`
}

type telegramPreview struct {
	IsDisabled bool `json:"is_disabled"`
}

func telegramPayload(m Message, chatID string) telegramMessage {
	return telegramMessage{ChatID: chatID, Text: cut(m.Text(), 4096), LinkPreview: telegramPreview{IsDisabled: true}}
}

// JSON: Tally's own shape, for any other receiver.
type jsonMessage struct {
	Schema int         `json:"schema"`
	Title  string      `json:"title"`
	Text   string      `json:"text"`
	Events []jsonEvent `json:"events"`
	More   int         `json:"more,omitempty"`
}

type jsonEvent struct {
	Kind    Kind      `json:"kind"`
	Since   time.Time `json:"since"`
	Session Session   `json:"session"`
	Via     string    `json:"via,omitempty"`
	Done    int       `json:"done"`
	Total   int       `json:"total"`
	Items   []string  `json:"items,omitempty"`
	// Reason: why a blocked session is blocked.
	Reason string `json:"reason,omitempty"`
	// Plan: what a plan event is about (task, taskName, step, reason).
	Plan *PlanNews `json:"plan,omitempty"`
	Text string    `json:"text"`
}

func jsonPayload(m Message) jsonMessage {
	out := jsonMessage{Schema: JSONSchema, Title: m.Title(), Text: m.Text(), Events: []jsonEvent{}, More: m.More}
	for _, e := range m.Events {
		out.Events = append(out.Events, jsonEvent{
			Kind: e.Kind, Since: e.Since.UTC(), Session: e.Session, Via: e.Via,
			Done: e.Done, Total: e.Total, Items: e.Items, Reason: e.Reason, Plan: e.Plan, Text: Line(e),
		})
	}
	return out
}

// cut shortens s to at most n runes, ending in "…" when it cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
