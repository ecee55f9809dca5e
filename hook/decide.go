package hook

import (
	"strings"

	"github.com/tallyhq/tally"
)

// Decide answers one hook call and returns the state to save. It reads
// nothing but its arguments.
func Decide(ev Event, s Session, st State, o Options) (Answer, State) {
	o = o.withDefaults()
	if ev.AgentID != "" {
		return Answer{}, st
	}
	st.observe(s)
	switch ev.Name {
	case SessionStart:
		return sessionStart(ev, s, st, o)
	case Stop:
		return guardStop(ev, s, st, o)
	case UserPromptSubmit, PostToolUse:
		return keepOnTrack(ev, s, st, o)
	case PreCompact:
		return announced(ev, st)
	case Notification:
		if ev.NotificationType == PermissionPrompt || ev.NotificationType == IdlePrompt {
			return Answer{NeedsInput: true}, st
		}
	}
	return Answer{}, st
}

// sessionStart is the answer when a context starts: the plan protocol
// where the project keeps a plan and the context lacks it, where the plan
// stands, and after a compaction or a resume the unfinished items — each
// once per context (State.Compactions): what the context still holds, or
// what was given back and not yet sent, is not given again.
func sessionStart(ev Event, s Session, st State, o Options) (Answer, State) {
	switch ev.Source {
	case SourceStartup, SourceClear:
		// A new context holds nothing given before, sent or not.
		st.Protocol, st.Injected = false, 0
		st.UnsentLists, st.UnsentProtocol, st.UnsentPlan = false, false, false
	case SourceCompact:
		st.Compactions++
		// Given, and no model call has carried it yet: Claude Code keeps
		// it through the compaction (compact_boundary's
		// preservedMessages), so it reaches the model once, after.
		if st.UnsentLists {
			st.GivenAt = st.Compactions
		}
		if st.UnsentProtocol {
			st.ProtocolAt = st.Compactions
		}
	}
	var parts []string
	protocol := o.Protocol != "" && !protocolGiven(st)
	if protocol {
		parts = append(parts, o.Protocol)
		st.Protocol, st.ProtocolAt, st.UnsentProtocol = true, st.Compactions, true
	}
	lists := ""
	switch ev.Source {
	case SourceResume:
		if o.ResumeLater {
			// A compaction still owed stays owed: the resumed context
			// lost the lists as well, and its words say why.
			if st.Owed != SourceCompact {
				st.Owed = SourceResume
			}
			break
		}
		fallthrough
	case SourceCompact:
		if !givenAlready(st) {
			lists = resumeText(ev.Source, s.Lists)
		}
	}
	if o.Plan != "" && (protocol || lists != "") && !st.UnsentPlan {
		parts = append(parts, o.Plan)
		st.UnsentPlan = true
	}
	if lists != "" {
		parts = append(parts, lists)
		st = given(st)
	}
	return Answer{Context: strings.Join(parts, "\n\n")}, st
}

// given records that the lists were given back to the current context.
func given(st State) State {
	st.Injected, st.GivenAt, st.UnsentLists = st.Fingerprint, st.Compactions, true
	return st
}

// protocolGiven tells whether the plan protocol is in the current context.
func protocolGiven(st State) bool {
	return !st.Unavailable && st.Protocol && st.ProtocolAt == st.Compactions
}

// givenAlready tells whether the lists, unchanged, were given back to the
// current context already: a resumed session keeps them in its context.
func givenAlready(st State) bool {
	return !st.Unavailable && st.Injected != 0 && st.Injected == st.Fingerprint && st.GivenAt == st.Compactions
}

// announced notes a compaction the agent announces before it happens.
// Only one the user asked for is sure to happen: an agent may announce an
// automatic one before every model call and then find no need (Gemini CLI
// 0.61 does), and giving the lists back each time would flood the context.
func announced(ev Event, st State) (Answer, State) {
	if ev.Source == SourceManual {
		st.Owed = SourceCompact
	}
	return Answer{}, st
}

// givenBack is the answer, at the first call that can add context after
// an announced compaction or a resume given back later, that gives the
// model its unfinished items back.
func givenBack(s Session, st State) (Answer, State) {
	src := st.Owed
	st.Owed = ""
	if src == SourceCompact {
		st.Compactions++
	}
	if givenAlready(st) {
		return Answer{Active: true}, st
	}
	a := Answer{Active: true, Context: resumeText(src, s.Lists)}
	if a.Context != "" {
		st = given(st)
	}
	return a, st
}

// guardStop refuses a stop while unblocked work remains, within the limits
// that keep it from ever trapping the agent.
func guardStop(ev Event, s Session, st State, o Options) (Answer, State) {
	if !o.GuardStop || st.Unavailable || ev.StopHookActive || ev.PermissionMode == "plan" || asksUser(ev.LastAssistantMessage) {
		return Answer{}, st
	}
	left := workable(s.Lists)
	if len(left) == 0 {
		return Answer{}, st
	}
	recent := st.Blocks[:0:0]
	for _, t := range st.Blocks {
		if o.Now.Sub(t) < o.StopWindow {
			recent = append(recent, t)
		}
	}
	st.Blocks = recent
	if len(st.Blocks) >= o.StopBlocks {
		return Answer{}, st
	}
	st.Blocks = append(st.Blocks, o.Now)
	return Answer{Block: stopText(left)}, st
}

// asksUser tells whether the agent ended its turn with a question: it
// stops to hear the user, and making it go on would make it guess.
func asksUser(msg string) bool {
	return strings.HasSuffix(strings.TrimSpace(msg), "?")
}

// keepOnTrack is the answer to activity: the verification nudge when it is
// due, else a reminder when one is due.
func keepOnTrack(ev Event, s Session, st State, o Options) (Answer, State) {
	a := Answer{Active: true}
	if st.Unavailable {
		return a, st
	}
	if st.Owed != "" {
		return givenBack(s, st)
	}
	own := ownItems(s.Lists)
	done := 0
	for _, it := range own {
		if it.Status == tally.StatusCompleted {
			done++
		}
	}
	if done == 0 {
		st.Nudged = false // a new list: it may earn its own nudge
	}
	nudge := ev.Name == PostToolUse && !st.Nudged && tally.VerificationDue(own, st.Completed)
	st.Completed = done
	if nudge {
		st.Nudged = true
		a.Context = nudgeText
		return a, st
	}
	if o.RemindAfter < 0 || st.Turns < o.RemindAfter || st.SinceReminder < o.RemindAfter {
		return a, st
	}
	var lists []List
	for _, l := range s.Lists {
		if l.Kind != ListOwn || o.OwnReminders {
			lists = append(lists, l)
		}
	}
	if text := reminderText(lists, st.Turns); text != "" {
		st.SinceReminder = 0
		a.Context = text
	}
	return a, st
}

func ownItems(lists []List) []tally.Item {
	var out []tally.Item
	for _, l := range lists {
		if l.Kind == ListOwn {
			out = append(out, l.Items...)
		}
	}
	return out
}

// open is one unfinished item with where it stands.
type open struct {
	list *List
	view tally.ItemView
	// blockers are the open items it waits on, as "#id title".
	blockers []string
}

// unfinished lists the open items of l: in progress first, then pending
// and the rest in list order.
func unfinished(l *List) []open {
	views := tally.DeriveBlocked(l.Items)
	titles := make(map[string]string, len(views))
	openIDs := make(map[string]bool, len(views))
	for _, v := range views {
		if v.ID != "" {
			titles[v.ID] = v.Title
			openIDs[v.ID] = v.Status.Open()
		}
	}
	var first, rest []open
	for _, v := range views {
		if !v.Status.Open() {
			continue
		}
		o := open{list: l, view: v}
		for _, b := range v.BlockedBy {
			if openIDs[b] {
				o.blockers = append(o.blockers, "#"+b+" "+titles[b])
			}
		}
		if v.Status == tally.StatusInProgress {
			first = append(first, o)
		} else {
			rest = append(rest, o)
		}
	}
	return append(first, rest...)
}

// workable is every unfinished item nothing blocks, over all lists.
func workable(lists []List) []open {
	var out []open
	for i := range lists {
		for _, o := range unfinished(&lists[i]) {
			if !o.view.Blocked {
				out = append(out, o)
			}
		}
	}
	return out
}
