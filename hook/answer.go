package hook

// Answer is what a hook call answers. The zero Answer says nothing: the
// agent goes on as if no hook had run.
type Answer struct {
	// Context is text for the model (additionalContext).
	Context string
	// Block, for Stop, refuses the stop; it is the reason the model reads.
	Block string
	// NeedsInput: the session waits for its user from now on.
	NeedsInput bool
	// Active: the session did something now, which ends waiting.
	Active bool
	// Permission answers a PermissionRequest; nil says nothing, and the
	// agent asks in its own way.
	Permission *Permission
}

// Permission is a person's answer to a request, for the agent.
type Permission struct {
	// Verdict is allow, always or deny (tally.Verdict's words).
	Verdict string
	// Message is what a denial tells the model.
	Message string
}

// Empty tells whether the answer has nothing for the agent to read.
func (a Answer) Empty() bool { return a.Context == "" && a.Block == "" && a.Permission == nil }
