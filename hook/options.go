package hook

import "time"

// Defaults of Options.
const (
	DefaultStopBlocks  = 2
	DefaultStopWindow  = 5 * time.Minute
	DefaultRemindAfter = 10
	// DefaultApprovalWait is how long a permission request waits for a
	// decision taken elsewhere (tally setup --remote-approvals) before the
	// agent asks in its own way.
	DefaultApprovalWait = 120 * time.Second
	// MaxApprovalWait keeps that wait under Claude Code's timeout of a
	// hook (600 s unless its settings say otherwise), with the hook's own
	// second to answer.
	MaxApprovalWait = 590 * time.Second
)

// Options configure Decide. Zero values take the defaults.
type Options struct {
	// GuardStop turns the stop guard on (it is opt-in).
	GuardStop bool
	// StopBlocks is how many stops the guard refuses within StopWindow
	// before it lets the agent stop whatever remains.
	StopBlocks int
	StopWindow time.Duration
	// RemindAfter is how many assistant turns without a list update make a
	// reminder due; negative turns reminders off.
	RemindAfter int
	// OwnReminders reminds of the agent's own list too. Claude Code
	// reminds itself of its TodoWrite and Task lists after ten turns, so
	// for it this stays off and only the Tally list is reminded of.
	OwnReminders bool
	// ResumeLater gives a resumed session its lists back at the next
	// prompt or tool result rather than at SessionStart: Gemini CLI 0.61
	// writes a resumed session's conversation back to its record only
	// after its SessionStart hooks ran, so the record read then holds no
	// list yet.
	ResumeLater bool
	// Now is the time of the call.
	Now time.Time
	// Protocol is how an agent keeps the plan of the session's project
	// (planner.Protocol), "" where the project keeps none. It is given at
	// the session's start, and again whenever the context that held it
	// is gone (a compaction, a clear).
	Protocol string
	// Plan says where the project's plan stands, in a line
	// (planview.Standing: "T001 S2 next …"), "" where the project keeps
	// none. A SessionStart that gives the protocol or the lists gives it
	// too.
	Plan string
}

func (o Options) withDefaults() Options {
	if o.StopBlocks <= 0 {
		o.StopBlocks = DefaultStopBlocks
	}
	if o.StopWindow <= 0 {
		o.StopWindow = DefaultStopWindow
	}
	if o.RemindAfter == 0 {
		o.RemindAfter = DefaultRemindAfter
	}
	if o.Now.IsZero() {
		o.Now = time.Now()
	}
	return o
}
