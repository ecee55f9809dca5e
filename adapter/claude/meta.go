package claude

import (
	"strings"

	"github.com/tallyhq/tally"
	"github.com/valyala/fastjson"
)

// meta looks for the two facts read once per file: the project (the first
// cwd) and a weak title (the first real prompt). Once found, the
// prefilter stops selecting lines for them.
func (d *Decoder) meta(l line, list string) error {
	if !d.st.HaveCwd {
		cwd, ok, err := str(l.v, "cwd")
		if err != nil {
			return err
		}
		if ok && cwd != "" {
			sid, _, err := str(l.v, "sessionId")
			if err != nil {
				return err
			}
			if sid == "" {
				if sid, _, err = str(l.v, "session_id"); err != nil {
					return err
				}
			}
			d.st.HaveCwd = true
			d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{SessionID: sid, Project: cwd}})
		}
	}
	if !d.st.HaveTitle && string(l.typ) == "user" && list == "" && !l.v.GetBool("isSidechain") {
		prompt, err := promptText(l.v)
		if err != nil {
			return err
		}
		if prompt != "" {
			d.st.HaveTitle = true
			d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Title: prompt, TitleWeak: true}})
		}
	}
	return nil
}

// title is a real title: a summary, ai-title or custom-title line. Once
// one is seen, the first prompt is no longer worth looking for.
func (d *Decoder) title(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	d.st.HaveTitle = true
	d.add(tally.Event{Kind: tally.EventMeta, Meta: tally.Meta{Title: string(b)}})
	return nil
}

// promptText is the text of a prompt the user typed, cut to a title, or
// "" for a user line that is not one: a tool result, a meta line Claude
// Code inserts, a slash command's echo, a compaction summary.
func promptText(v *fastjson.Value) (string, error) {
	if v.GetBool("isMeta") || v.GetBool("isCompactSummary") {
		return "", nil
	}
	c := v.Get("message", "content")
	if c == nil {
		return "", nil
	}
	var text []byte
	switch c.Type() {
	case fastjson.TypeString:
		text, _ = c.StringBytes()
	case fastjson.TypeArray:
		for _, b := range c.GetArray() {
			if string(b.GetStringBytes("type")) != "text" {
				return "", nil // a tool_result or an image: not a typed prompt
			}
			text = b.GetStringBytes("text")
			break
		}
	default:
		return "", nil
	}
	s := strings.TrimSpace(string(text))
	if cmd := slashCommand(s); cmd != "" {
		return tally.PromptTitle(cmd), nil
	}
	if s == "" || isInjected(s) {
		return "", nil
	}
	return tally.PromptTitle(s), nil
}

// injectedPrefixes start user lines Claude Code writes itself.
var injectedPrefixes = []string{
	"<command-", "<local-command-", "<system-reminder>", "<bash-", "<user-prompt-submit-hook>",
	"Caveat: The messages below were generated",
	"[Request interrupted",
}

func isInjected(s string) bool {
	for _, p := range injectedPrefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// slashCommand turns the echo Claude Code writes for a slash command
// ("<command-name>/init</command-name><command-args>…</command-args>") into
// what the user typed: the expansion that follows is isMeta and says less.
func slashCommand(s string) string {
	name := between(s, "<command-name>", "</command-name>")
	if name == "" {
		return ""
	}
	if args := between(s, "<command-args>", "</command-args>"); args != "" {
		return name + " " + args
	}
	return name
}

func between(s, open, close string) string {
	_, rest, ok := strings.Cut(s, open)
	if !ok {
		return ""
	}
	in, _, ok := strings.Cut(rest, close)
	if !ok {
		return ""
	}
	return strings.TrimSpace(in)
}
