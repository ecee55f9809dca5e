package tally

import (
	"context"
	"time"
)

// Request is an agent's question to its user that Tally lets the user
// answer from elsewhere (the board, the terminal, a phone): a permission to
// run a tool, or a plan to approve. The hook that asked waits for its
// Verdict until ExpiresAt, then answers nothing and the agent asks in its
// own way. A Request is the record of that question and of its answer: who
// answered, from where, when.
//
// Everything in it but the times and the verdict came from the agent's
// call, which a model shaped: it is data to show escaped, never markup.
type Request struct {
	// ID is the request's one-time id: a decision names it, and is taken
	// once.
	ID      string `json:"id"`
	Session string `json:"session"`
	Agent   Agent  `json:"agent"`
	// Tool is the tool the agent asks to run (Bash, Edit, ExitPlanMode).
	Tool string `json:"tool"`
	// Summary is what the tool would do, in a line: the command, the file.
	Summary string `json:"summary,omitempty"`
	// Detail is an excerpt of the rest: a diff, a file's new text, a plan.
	Detail string `json:"detail,omitempty"`
	// Project is the agent's working directory, as its call said: the
	// project of the record a store makes for a session it has no record
	// of yet, so the request shows at once.
	Project string `json:"project,omitempty"`
	// Always: the agent can be told to allow this for the rest of the
	// session (VerdictAlways).
	Always    bool      `json:"always,omitempty"`
	AskedAt   time.Time `json:"askedAt"`
	ExpiresAt time.Time `json:"expiresAt"`
	// Verdict is the answer; "" while the request is open.
	Verdict Verdict `json:"verdict,omitempty"`
	// Message is what a denial tells the model.
	Message string `json:"message,omitempty"`
	// By is who decided (a token's name, the user at a terminal); From is
	// where (the board at an address, the command line, the TUI).
	By        string    `json:"by,omitempty"`
	From      string    `json:"from,omitempty"`
	DecidedAt time.Time `json:"decidedAt,omitzero"`
}

// Verdict is how a Request was answered.
type Verdict string

const (
	// VerdictAllow runs the tool this once.
	VerdictAllow Verdict = "allow"
	// VerdictAlways runs it and lets the agent allow the same for the rest
	// of the session without asking.
	VerdictAlways Verdict = "always"
	// VerdictDeny refuses it; Message, if any, tells the model why.
	VerdictDeny Verdict = "deny"
	// VerdictElsewhere: the user answered at the agent itself (its own
	// prompt), so the request is closed unanswered here.
	VerdictElsewhere Verdict = "elsewhere"
)

// ParseVerdict parses the verdicts a person may give: allow, always, deny.
func ParseVerdict(s string) (Verdict, error) {
	switch v := Verdict(s); v {
	case VerdictAllow, VerdictAlways, VerdictDeny:
		return v, nil
	}
	return "", errorf(CodeInvalid, "ParseVerdict", "unknown verdict %q (want allow, always or deny)", s)
}

// Open tells whether the request still waits for a decision at now.
func (r *Request) Open(now time.Time) bool {
	return r.Verdict == "" && now.Before(r.ExpiresAt)
}

// Decision is a person's answer to one request, as a store takes it.
type Decision struct {
	// ID is the request's one-time id; Session the session it must be of.
	ID      string
	Session string
	Verdict Verdict
	Message string
	By      string
	From    string
	At      time.Time
}

// MaxRequestMessage bounds a denial's message (bytes).
const MaxRequestMessage = 4 << 10

// Decide applies d to r, or says why it may not: a request is decided
// once, before it expires, only as the session it is of, and with a
// verdict a person gives (allow always only where the agent offers it).
// Every store decides by it, inside the transaction that writes the
// result.
func (r *Request) Decide(d Decision) error {
	const op = "DecideRequest"
	switch {
	case d.Session != r.Session:
		return errorf(CodeInvalid, op, "request %s is not of session %s", d.ID, d.Session)
	case r.Verdict == VerdictElsewhere:
		return errorf(CodeConflict, op, "request %s was answered at the agent", d.ID)
	case r.Verdict != "":
		return errorf(CodeConflict, op, "request %s was answered already (%s by %s)", d.ID, r.Verdict, r.By)
	case !d.At.Before(r.ExpiresAt):
		return errorf(CodeConflict, op, "request %s expired at %s: the agent asks in its own way now", d.ID, r.ExpiresAt.UTC().Format(time.RFC3339))
	case len(d.Message) > MaxRequestMessage:
		return errorf(CodeInvalid, op, "the message is over %d bytes", MaxRequestMessage)
	case d.Message != "" && d.Verdict != VerdictDeny:
		return errorf(CodeInvalid, op, "only a denial carries a message")
	}
	if _, err := ParseVerdict(string(d.Verdict)); err != nil {
		return err
	}
	if d.Verdict == VerdictAlways && !r.Always {
		return errorf(CodeInvalid, op, "the agent offers no \"always\" for request %s: allow it once", d.ID)
	}
	r.Verdict, r.Message, r.By, r.From, r.DecidedAt = d.Verdict, d.Message, d.By, d.From, d.At
	return nil
}

// RequestRecord is the record a store makes for a session it has no
// record of when a request of it is asked: the agent, the project, and
// the session waiting for its user since the request.
func RequestRecord(r *Request) Record {
	return Record{ID: r.Session, Agent: r.Agent, Project: r.Project, StartedAt: r.AskedAt, LastActivity: r.AskedAt, Signal: SignalAsking}
}

// ShownRequests is how many of a session's requests its record shows,
// newest first: the open one and the decisions before it.
const ShownRequests = 3

// RequestKeeper keeps the requests agents' hooks ask of their users and
// the decisions taken on them. A session's record shows its newest
// requests (Record.Requests, ShownRequests of them) from the moment one is
// asked, decided or closed: each of those takes a change mark, and a
// commit or a push of the record keeps them. A request asked for a session
// the store has no record of yet (its log not indexed yet) makes one
// (RequestRecord), which the session's first commit replaces.
type RequestKeeper interface {
	// AskRequest stores a new open request; an id already stored is
	// CodeConflict.
	AskRequest(ctx context.Context, r Request) error
	// Request returns a request by id; an unknown one is CodeNotFound.
	Request(ctx context.Context, id string) (Request, error)
	// SessionRequests are a session's requests, newest first.
	SessionRequests(ctx context.Context, session string) ([]Request, error)
	// DecideRequest applies a decision (Request.Decide) in one
	// transaction and returns the request decided: taken once, so of two
	// decisions one fails with CodeConflict.
	DecideRequest(ctx context.Context, d Decision) (Request, error)
	// CloseRequests marks the session's open requests answered at the
	// agent (VerdictElsewhere) as of at, and says how many it closed.
	CloseRequests(ctx context.Context, session string, at time.Time) (int, error)
}
