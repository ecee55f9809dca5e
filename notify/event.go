package notify

import (
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/tallyhq/tally"
)

// Kind is what a notification is about. The first six are the detect flags
// of the same names, in the same (urgency) order.
type Kind uint8

const (
	KindNeedsInput Kind = iota
	KindStalled
	KindLooping
	KindNoProgress
	KindBlocked
	KindFinished
	// KindListCreated: a session started a todo list. Opt-in.
	KindListCreated
	// KindItemCompleted: an item of a session's list was completed. Opt-in.
	KindItemCompleted
	// KindStepBlocked: an agent said a step of its project's plan is
	// blocked (progress: T001.S2 blocked: reason). Opt-in.
	KindStepBlocked
	// KindTaskComplete: a task of a project's plan was completed. Opt-in.
	KindTaskComplete
	// KindPlanComplete: the last task of a project's plan was completed.
	// Opt-in.
	KindPlanComplete

	kindCount
)

var kindNames = [kindCount]string{
	KindNeedsInput:    "needs_input",
	KindStalled:       "stalled",
	KindLooping:       "looping",
	KindNoProgress:    "no_progress",
	KindBlocked:       "blocked",
	KindFinished:      "finished",
	KindListCreated:   "list_created",
	KindItemCompleted: "item_completed",
	KindStepBlocked:   "step_blocked",
	KindTaskComplete:  "task_complete",
	KindPlanComplete:  "plan_complete",
}

// flagKinds maps each detect flag to its kind.
var flagKinds = [...]struct {
	flag tally.Flag
	kind Kind
}{
	{tally.FlagNeedsInput, KindNeedsInput},
	{tally.FlagStalled, KindStalled},
	{tally.FlagLooping, KindLooping},
	{tally.FlagNoProgress, KindNoProgress},
	{tally.FlagBlocked, KindBlocked},
	{tally.FlagFinished, KindFinished},
}

func (k Kind) String() string {
	if k < kindCount {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}

// ParseKind parses the words String returns; a hyphen may stand for the
// underscore.
func ParseKind(s string) (Kind, error) {
	w := strings.ReplaceAll(s, "-", "_")
	for i, name := range kindNames {
		if w == name {
			return Kind(i), nil
		}
	}
	return 0, tally.Errorf(tally.CodeInvalid, "notify", "unknown event %q (want %s)", s, strings.Join(kindNames[:], ", "))
}

// Kinds is a set of kinds.
type Kinds uint16

// DefaultKinds are the events sent unless the settings say otherwise: all
// that need a person; list_created and item_completed are opt-in.
func DefaultKinds() Kinds {
	var s Kinds
	for _, fk := range flagKinds {
		s = s.With(fk.kind)
	}
	return s
}

func (s Kinds) With(k Kind) Kinds { return s | 1<<k }

// Names are the names of the kinds in s, in the order of the kinds.
func (s Kinds) Names() []string {
	var out []string
	for k := range kindCount {
		if s.Has(k) {
			out = append(out, k.String())
		}
	}
	return out
}
func (s Kinds) Has(k Kind) bool { return k < kindCount && s&(1<<k) != 0 }

// ParseKinds parses a list of event names.
func ParseKinds(names []string) (Kinds, error) {
	var s Kinds
	for _, n := range names {
		k, err := ParseKind(n)
		if err != nil {
			return 0, err
		}
		s = s.With(k)
	}
	return s, nil
}

// Session is what a notification says about the session it concerns.
type Session struct {
	ID string `json:"id"`
	// Parent is the session this one is a sub-agent of, "" for a top-level
	// session. A sub-agent's conditions are told as its parent's.
	Parent  string      `json:"parent,omitempty"`
	Agent   tally.Agent `json:"agent,omitempty"`
	Project string      `json:"project,omitempty"`
	Title   string      `json:"title,omitempty"`
	// StartedAt tells a session begun after the notifier started (all of
	// it is news) from one read from history.
	StartedAt time.Time `json:"-"`
	// Asks is what the session's agent asks its user now, one line (a
	// tool and what it would do), "" when nothing; Link opens it on the
	// board, "" when no board address is known.
	Asks string `json:"asks,omitempty"`
	Link string `json:"link,omitempty"`
}

// Update is a session's state as a surface sees it: its flags now and its
// list's progress. Publish it after every change and whenever the flags
// may have changed with time (detect.Rules.Due); the notifier works out
// what is news.
type Update struct {
	Session Session
	// At is when the session was last active: the time of the state the
	// update describes. History read at start-up has old times.
	At    time.Time
	Flags tally.Flags
	// Done and Total are the main list's X of Y.
	Done, Total int
	// Completed names the items this change completed, when the caller
	// knows them; item_completed events carry them.
	Completed []string
	// Blocked says why the session is blocked while Flags has blocked
	// (tally.Session.BlockedReason); blocked events carry it.
	Blocked string
}

// Event is one piece of news: a session (sub-agents rolled up into their
// parent) came into a condition, or its list moved.
type Event struct {
	Kind    Kind
	Session Session
	// Via is the sub-agent whose condition this is, "" when the session's
	// own.
	Via   string
	Since time.Time
	Done  int
	Total int
	Items []string
	// Reason is why a blocked session is blocked.
	Reason string
	// Plan is what a plan event is about; nil for the other kinds.
	Plan *PlanNews
}

// PlanNews is what an agent's progress marker did to its project's plan:
// a step blocked, a task complete, the plan complete. Done and Total, on
// the event, are the plan's tasks after it.
type PlanNews struct {
	Kind     Kind   `json:"-"`
	Task     string `json:"task,omitempty"`
	TaskName string `json:"taskName,omitempty"`
	Step     string `json:"step,omitempty"`
	Reason   string `json:"reason,omitempty"`
	Done     int    `json:"-"`
	Total    int    `json:"-"`
	// Quick counts the quick tasks done beside the plan.
	Quick int `json:"-"`
	// At is when the agent wrote the marker: a marker read from history
	// (written before the notifier started) is not news.
	At time.Time `json:"-"`
}

// Message is what a sink sends: the events of one burst, in the order they
// happened.
type Message struct {
	Events []Event
	// More counts events left out of Events to keep the message short.
	More int
}

// maxEvents bounds the events one message lists; the rest are counted.
const maxEvents = 20

func (m *Message) add(evs ...Event) {
	for _, e := range evs {
		if len(m.Events) < maxEvents {
			m.Events = append(m.Events, e)
		} else {
			m.More++
		}
	}
}

// Title is a one-line summary: what happened when there is one event, how
// many sessions when there are several.
func (m Message) Title() string {
	if len(m.Events) == 1 && m.More == 0 {
		e := m.Events[0]
		return fmt.Sprintf("%s %s", agentName(e.Session.Agent), headline(e))
	}
	sessions := map[string]bool{}
	for _, e := range m.Events {
		sessions[e.Session.ID] = true
	}
	n := len(m.Events) + m.More
	if len(sessions) == 1 && m.More == 0 {
		return fmt.Sprintf("%s: %d updates", Label(m.Events[0].Session), n)
	}
	return fmt.Sprintf("Tally: %d updates from %d sessions", n, len(sessions))
}

// Summary is the line a phone's notification shows: the whole event when
// there is one, the Title when there are several.
func (m Message) Summary() string {
	if len(m.Events) == 1 && m.More == 0 {
		return Line(m.Events[0])
	}
	return m.Title()
}

// Lines are the message's body, one line per event.
func (m Message) Lines() []string {
	out := make([]string, 0, len(m.Events)+1)
	for _, e := range m.Events {
		out = append(out, Line(e))
	}
	if m.More > 0 {
		out = append(out, fmt.Sprintf("… and %d more", m.More))
	}
	return out
}

// Text is the whole message as plain text: the one event's line, or the
// title and a line per event.
func (m Message) Text() string {
	if len(m.Events) == 1 && m.More == 0 {
		return Line(m.Events[0])
	}
	return m.Title() + "\n" + strings.Join(m.Lines(), "\n")
}

// Line tells one event: "claude · tally · Fix the login bug: needs your input".
func Line(e Event) string {
	return Label(e.Session) + ": " + headline(e)
}

// Label names a session for a person: agent, project folder, title (or a
// short id when it has none).
func Label(s Session) string {
	parts := make([]string, 0, 3)
	if s.Agent != "" {
		parts = append(parts, string(s.Agent))
	}
	if s.Project != "" {
		parts = append(parts, path.Base(strings.ReplaceAll(s.Project, `\`, "/")))
	}
	switch {
	case s.Title != "":
		parts = append(parts, s.Title)
	case len(s.ID) > 8:
		parts = append(parts, s.ID[:8])
	default:
		parts = append(parts, s.ID)
	}
	return strings.Join(parts, " · ")
}

func agentName(a tally.Agent) string {
	if a == "" {
		return "An agent"
	}
	return string(a)
}

// headline says what happened, without the session.
func headline(e Event) string {
	var s string
	switch e.Kind {
	case KindNeedsInput:
		s = "needs your input"
		if e.Session.Asks != "" {
			s = "asks you: " + e.Session.Asks
		}
		if e.Session.Link != "" {
			s += " — answer at " + e.Session.Link
		}
	case KindStalled:
		s = "has stalled: no output while working"
	case KindLooping:
		s = "is looping: the same tool call again and again"
	case KindNoProgress:
		s = "is making no progress: many tool calls, no list change"
	case KindBlocked:
		s = "is blocked"
		if e.Reason != "" {
			s += ": " + e.Reason
		}
	case KindFinished:
		s = fmt.Sprintf("finished: all %d items complete", e.Total)
	case KindListCreated:
		s = fmt.Sprintf("started a list of %d items", e.Total)
	case KindItemCompleted:
		s = fmt.Sprintf("completed an item (%d/%d)", e.Done, e.Total)
		if len(e.Items) > 0 {
			s = fmt.Sprintf("completed %s (%d/%d)", strings.Join(quoteAll(e.Items), ", "), e.Done, e.Total)
		}
	case KindStepBlocked, KindTaskComplete, KindPlanComplete:
		s = planHeadline(e)
	default:
		s = e.Kind.String()
	}
	if e.Via != "" {
		s += " (sub-agent " + short(e.Via) + ")"
	}
	return s
}

// planHeadline says what a marker did to the plan.
func planHeadline(e Event) string {
	p := e.Plan
	if p == nil {
		p = &PlanNews{}
	}
	task := strings.TrimSpace(p.Task + " " + p.TaskName)
	switch e.Kind {
	case KindStepBlocked:
		s := "is blocked at " + p.Task
		if p.Step != "" {
			s += "." + p.Step
		}
		if p.Reason != "" {
			s += ": " + p.Reason
		}
		return s
	case KindTaskComplete:
		return fmt.Sprintf("completed %s (%d/%d tasks)", task, e.Done, e.Total)
	}
	s := fmt.Sprintf("completed its plan: all %d tasks", e.Total)
	if p.Quick > 0 {
		s += fmt.Sprintf(" · Quick: %d done", p.Quick) // seed 04: "5/5 tasks … Quick: 3"
	}
	return s
}

func quoteAll(items []string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = "“" + it + "”"
	}
	return out
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
