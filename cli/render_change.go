package cli

import (
	"encoding/json"
	"io"
	"strings"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/projectname"
	"github.com/tallyhq/tally/termstyle"
)

// LineOptions shape RenderChange's output.
type LineOptions struct {
	// Previous is the session as the last line about it showed it (nil:
	// not seen yet). The line names what changed since.
	Previous *tally.Session
	// Others are the projects of the other sessions the output has named:
	// the project is named so as to be told apart from them.
	Others []string
	// ID is what the line calls the session: its id as tally.ShortIDs
	// gives it among the sessions the output has named ("": as it gives
	// it alone).
	ID    string
	Width int
	Now   time.Time
	Home  string
	Color bool
}

// RenderChange writes one line for a committed change, stamped with the
// wall-clock time it was seen. The line names each item whose state
// changed since Previous, in its new state:
//
//	14:03:07 7c1e2a90 claude ~/src/shop Fix checkout rounding  2/4  ✓ Write tests (completed)
//
// and, when no item changed (or the session is new to the output), the
// step being worked on:
//
//	14:03:07 7c1e2a90 claude ~/src/shop Fix checkout rounding  1/4  ◼ Running tests
func RenderChange(w io.Writer, ch index.Change, o LineOptions) error {
	st := termstyle.Painter{On: o.Color}
	stamp := st.Paint(termstyle.Fg(termstyle.Gray), o.Now.Format(time.TimeOnly))
	if ch.Kind == index.SessionRemoved {
		_, err := io.WriteString(w, stamp+" "+termstyle.Truncate(ch.ID+"  removed", max(o.Width-9, 0))+"\n")
		return err
	}
	s := ch.Record.Session(o.Now)
	id := o.ID
	if id == "" {
		id = tally.ShortIDs([]tally.Session{s})[s.ID]
	}
	parts := []string{st.Paint(termstyle.Fg(termstyle.Gray), id), s.Agent.String(), projectname.New(o.Home, append(o.Others[:len(o.Others):len(o.Others)], s.Project)...).Name(s.Project, maxProject)}
	if t := oneLine(s.Title); t != "" {
		parts = append(parts, t)
	}
	text := strings.Join(parts, " ") + "  " + fraction(s.Progress.Done, s.Progress.Total)
	// What needs a person ends the line, where a truncated line keeps its
	// start: it is cut last.
	flags := ""
	if !s.Flags.Empty() {
		flags = "  ! " + termstyle.FlagsText(s.Flags)
		if s.BlockedReason != "" {
			flags += " (" + termstyle.Truncate(oneLine(s.BlockedReason), 48) + ")"
		}
	}
	write := func(text string) error {
		room := 0 // no limit
		if o.Width > 0 {
			room = max(o.Width-9-termstyle.Width(flags), 1)
		}
		line := termstyle.Truncate(text, room) + flags
		if flags != "" {
			line = strings.Replace(line, termstyle.FlagsText(s.Flags), st.Flags(s.Flags), 1)
		}
		_, err := io.WriteString(w, stamp+" "+line+"\n")
		return err
	}
	if o.Previous != nil {
		if changed := sessionChanges(o.Previous, &s); len(changed) > 0 {
			return write(text + "  " + strings.Join(changed, "; "))
		}
	}
	// The step under way is an item in progress: its mark, as every
	// surface draws it (▸ is blocked).
	// With no step, the call the runtime runs says what the session does.
	if label, _ := s.Step(); label != "" {
		text += "  " + termstyle.MarkActive.Icon() + " " + oneLine(label)
	}
	if o.Previous != nil && o.Previous.Activity != s.Activity {
		text += "  (" + termstyle.ActivityLabel(s.Activity) + ")"
	}
	return write(text)
}

// changeJSON is one line of `tally watch --json`.
type changeJSON struct {
	Type    string         `json:"type"`
	ID      string         `json:"id,omitempty"`
	Session *tally.Session `json:"session,omitempty"`
}

// RenderChangeJSON writes a change as one JSON object on one line:
// {"type":"session_updated","session":{…}} or
// {"type":"session_removed","id":"…"}.
func RenderChangeJSON(w io.Writer, ch index.Change, now time.Time) error {
	out := changeJSON{Type: ch.Kind.String()}
	if ch.Kind == index.SessionRemoved {
		out.ID = ch.ID
	} else {
		s := ch.Record.Session(now)
		out.Session = &s
	}
	return json.NewEncoder(w).Encode(out)
}
