package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/termstyle"
)

// decideOptions are tally allow's and tally deny's.
type decideOptions struct {
	*app
	ID      string
	Always  bool
	Message string
	verdict tally.Verdict
}

func (a *app) allowCommand() *cobra.Command {
	o := &decideOptions{app: a, verdict: tally.VerdictAllow}
	cmd := &cobra.Command{
		Use:   "allow SESSION",
		Short: "Allow what a session's agent asks (a tool to run, a plan) from this terminal",
		Long: `Answer the open request of a session's agent — a permission prompt or a plan to
approve, shown on the board — with "allow": the agent's hook, waiting (tally setup
claude --remote-approvals), lets the tool run. SESSION is an id or a prefix of it,
as tally show takes it. --always also lets the agent allow the same for the rest
of the session, where it offers that.

The decision is recorded with who took it ($USER) and where (this machine), and
shown by tally show and on the card. Exit status 3 when the session has no open
request (answered already, expired, or none asked), 4 when the prefix matches
several sessions.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ID = args[0]
			if o.Always {
				o.verdict = tally.VerdictAlways
			}
			return runDecide(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Always, "always", false, "also allow the same for the rest of the session")
	return cmd
}

func (a *app) denyCommand() *cobra.Command {
	o := &decideOptions{app: a, verdict: tally.VerdictDeny}
	cmd := &cobra.Command{
		Use:   "deny SESSION",
		Short: "Deny what a session's agent asks, optionally telling the model why",
		Long: `Answer the open request of a session's agent — a permission prompt or a plan to
approve — with "deny": the tool does not run, and the model is told --message
(what to do instead), if given. SESSION as for tally allow; the same exit status.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ID = args[0]
			return runDecide(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVarP(&o.Message, "message", "m", "", "what the model is told (what to do instead)")
	return cmd
}

// runDecide decides the newest open request of the session o names.
func runDecide(ctx context.Context, o *decideOptions) error {
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	from := "tally " + string(o.verdict)
	if o.verdict == tally.VerdictAlways {
		from = "tally allow"
	}
	got, err := o.decideOpen(ctx, st, o.ID, o.verdict, o.Message, from)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(o.env.Out, requestLine(got, o.now()))
	return err
}

// requestDecider is what deciding a session's open request needs of the
// store.
type requestDecider interface {
	Record(ctx context.Context, idOrPrefix string) (tally.Record, error)
	tally.RequestKeeper
}

// decideOpen decides the newest open request of the session ref names
// (an id or a prefix), as $USER on this machine, from where.
func (a *app) decideOpen(ctx context.Context, st requestDecider, ref string, v tally.Verdict, message, where string) (tally.Request, error) {
	rec, err := st.Record(ctx, ref)
	if err != nil {
		return tally.Request{}, err
	}
	now := a.now()
	reqs, err := st.SessionRequests(ctx, rec.ID)
	if err != nil {
		return tally.Request{}, err
	}
	var open *tally.Request
	for i := range reqs {
		if reqs[i].Open(now) {
			open = &reqs[i]
			break
		}
	}
	if open == nil {
		return tally.Request{}, tally.Errorf(tally.CodeNotFound, "decide", "session %s has no open request: none was asked, or it was answered or expired", rec.ID)
	}
	user := a.env.Getenv("USER")
	if user == "" {
		user = "a terminal"
	}
	if a.env.Hostname != "" {
		where += " on " + a.env.Hostname
	}
	return st.DecideRequest(ctx, tally.Decision{ID: open.ID, Session: rec.ID, Verdict: v, Message: message,
		By: user, From: where, At: now})
}

// requestLine says what a request asked and how it ended, in one line.
func requestLine(r tally.Request, now time.Time) string {
	what := r.Tool
	if r.Summary != "" {
		what += ": " + r.Summary
	}
	switch {
	case r.Open(now):
		return fmt.Sprintf("? %s — waiting %s (tally allow / tally deny)", what, termstyle.Age(r.AskedAt, now))
	case r.Verdict == "":
		return fmt.Sprintf("· %s — no answer in time: the agent asked in its own way", what)
	case r.Verdict == tally.VerdictElsewhere:
		return fmt.Sprintf("· %s — answered at the agent", what)
	}
	words := map[tally.Verdict]string{tally.VerdictAllow: "allowed", tally.VerdictAlways: "allowed for the session", tally.VerdictDeny: "denied"}
	s := fmt.Sprintf("%s %s — %s by %s (%s) %s", map[bool]string{true: "✓", false: "✗"}[r.Verdict != tally.VerdictDeny],
		what, words[r.Verdict], r.By, r.From, ago(r.DecidedAt, now))
	if r.Message != "" {
		s += fmt.Sprintf(": %q", r.Message)
	}
	return s
}
