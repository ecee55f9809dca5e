package hook

import (
	"encoding/json"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds of what a request shows of a tool call's input.
const (
	// MaxSummary bounds the one line a request shows (runes).
	MaxSummary = 300
	// MaxDetail bounds the excerpt below it (bytes, whole lines).
	MaxDetail = 4 << 10
	// maxDetailLines bounds the excerpt's lines.
	maxDetailLines = 40
)

// toolInput is what Summarize looks for in a tool call's input: the
// fields of Claude Code's tools (Bash, Edit, MultiEdit, Write, Read,
// NotebookEdit, WebFetch, Grep, Glob, ExitPlanMode) and the like.
type toolInput struct {
	Command      string `json:"command"`
	Cmd          string `json:"cmd"`
	FilePath     string `json:"file_path"`
	NotebookPath string `json:"notebook_path"`
	Path         string `json:"path"`
	OldString    string `json:"old_string"`
	NewString    string `json:"new_string"`
	Content      string `json:"content"`
	NewSource    string `json:"new_source"`
	Edits        []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
	Plan        string `json:"plan"`
	URL         string `json:"url"`
	Pattern     string `json:"pattern"`
	Description string `json:"description"`
}

// Summarize is what a person is shown of a tool call before allowing it:
// a line (the command, the file, the URL) and an excerpt (a diff of an
// edit, a file's new text, a plan), both plain text cleaned of control
// characters and invalid UTF-8 and bounded (MaxSummary, MaxDetail). The
// input is the agent's, which a model wrote: surfaces show it escaped.
func Summarize(tool string, input json.RawMessage) (summary, detail string) {
	var in toolInput
	if json.Unmarshal(input, &in) != nil {
		return Line(tool), ""
	}
	file := first(in.FilePath, in.NotebookPath, in.Path)
	in.Command = first(in.Command, in.Cmd) // Codex's exec_command
	switch {
	case in.Command != "":
		summary, detail = in.Command, in.Description
		if strings.Contains(in.Command, "\n") {
			summary, detail = firstLine(in.Command)+" …", in.Command
		}
	case tool == ExitPlanMode || in.Plan != "":
		summary, detail = firstLine(in.Plan), in.Plan
	case in.OldString != "" || in.NewString != "":
		summary, detail = file, diff(in.OldString, in.NewString)
	case len(in.Edits) > 0:
		var b strings.Builder
		for _, e := range in.Edits {
			b.WriteString(diff(e.OldString, e.NewString))
		}
		summary, detail = file, b.String()
	case in.Content != "" || in.NewSource != "":
		summary, detail = file, first(in.Content, in.NewSource)
	case in.URL != "":
		summary = in.URL
	case in.Pattern != "":
		summary = strings.TrimSpace(in.Pattern + " " + file)
	case file != "":
		summary = file
	default:
		summary = string(input)
	}
	return Line(summary), excerpt(detail)
}

func first(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// diff is an edit as removed and added lines.
func diff(old, new string) string {
	var b strings.Builder
	for l := range strings.Lines(old) {
		b.WriteString("- " + strings.TrimRight(l, "\n") + "\n")
	}
	for l := range strings.Lines(new) {
		b.WriteString("+ " + strings.TrimRight(l, "\n") + "\n")
	}
	return b.String()
}

// Line is s on one line: clean, spaces for line breaks, cut at MaxSummary.
func Line(s string) string {
	s = strings.Join(strings.Fields(clean(s, false)), " ")
	if utf8.RuneCountInString(s) > MaxSummary {
		r := []rune(s)
		s = string(r[:MaxSummary-1]) + "…"
	}
	return s
}

// excerpt is s clean, cut to whole lines within MaxDetail and
// maxDetailLines, saying so when cut.
func excerpt(s string) string {
	s = strings.TrimRight(clean(s, true), "\n")
	var b strings.Builder
	n := 0
	for l := range strings.Lines(s) {
		if n == maxDetailLines || b.Len()+len(l) > MaxDetail {
			b.WriteString("…")
			return b.String()
		}
		b.WriteString(l)
		n++
	}
	return b.String()
}

// clean drops control characters (but line breaks and tabs where lines
// are kept) and replaces invalid UTF-8.
func clean(s string, lines bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\n' && lines, r == '\t':
			return r
		case r == '\r' && lines:
			return -1
		case unicode.IsControl(r), r == '\u2028', r == '\u2029', unicode.Is(unicode.Bidi_Control, r):
			if lines {
				return -1
			}
			return ' '
		}
		return r
	}, s)
}
