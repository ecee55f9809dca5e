package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store"
)

type sessionsOptions struct {
	*app
	Active  bool
	Agent   string
	Project string
	Machine string
	User    string
	Limit   int
	JSON    bool
	Scan    bool
}

func (a *app) sessionsCommand() *cobra.Command {
	o := &sessionsOptions{app: a}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List sessions with X/Y done and the current step",
		Long: `List indexed sessions, newest activity first: agent, project, title,
activity (working, needs input, idle, ended), X/Y done, the current step and
when the session was last active.

It reads the index only; run 'tally scan' first, or pass --scan. When
standard output is not a terminal the rows are tab-separated, untruncated,
with full ids and RFC 3339 times.

On a team's store (tally push), sessions pushed from developers' machines
show where they came from (ORIGIN, user@machine; a ninth column when piped,
present when any listed session has one); --machine and --user select them.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runSessions(cmd.Context(), o) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.Active, "active", false, "only sessions that have not ended")
	agents := newAgentFlag(&o.Agent, storedAgents(), true)
	f.Var(agents, "agent", "only sessions of this agent: "+agents.names())
	f.StringVar(&o.Project, "project", "", "only sessions whose project path contains this")
	f.StringVar(&o.Machine, "machine", "", "only sessions pushed from this machine (a team's store)")
	f.StringVar(&o.User, "user", "", "only sessions pushed by this user (a team's store)")
	f.IntVar(&o.Limit, "limit", 0, "at most this many sessions (0: all)")
	f.BoolVar(&o.JSON, "json", false, "print a JSON array of sessions")
	f.BoolVar(&o.Scan, "scan", false, "index new history before listing")
	return cmd
}

func runSessions(ctx context.Context, o *sessionsOptions) error {
	if o.Limit < 0 {
		return tally.Errorf(tally.CodeInvalid, "sessions", "--limit must be 0 or more, not %d", o.Limit)
	}
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if o.Scan {
		if _, err := o.scanOnce(ctx, st); err != nil {
			return err
		}
	}
	q := sessionQuery{
		Filter: tally.SessionFilter{Agent: tally.Agent(o.Agent), Project: o.Project, Machine: o.Machine, User: o.User, Limit: o.Limit},
		Active: o.Active,
	}
	list, err := q.run(ctx, st, o.now())
	if err != nil {
		return err
	}
	if o.JSON {
		return writeJSON(o.env.Out, list)
	}
	if len(list) == 0 {
		return o.explainEmpty(ctx, st)
	}
	return o.renderTable(list)
}

func (a *app) renderTable(list []tally.Session) error {
	o := TableOptions{Terminal: a.env.OutTTY, Width: a.env.width(), Now: a.now(), Home: a.env.Home, Color: a.env.color()}
	if o.Terminal {
		projects := make([]string, len(list))
		for i := range list {
			projects[i] = list[i].LocalProject()
		}
		o.Plans = a.planLines(projects...)
	}
	return RenderSessions(a.env.Out, list, o)
}

// explainEmpty says why nothing was listed, on stderr so that a pipe
// still reads an empty list: an empty index is not the same as a filter
// that matched nothing.
func (a *app) explainEmpty(ctx context.Context, st store.Store) error {
	some, err := st.Records(ctx, tally.SessionFilter{Limit: 1})
	if err != nil {
		return err
	}
	if len(some) == 0 {
		// Where the sessions would come from, as scan says it: an empty
		// index after a scan means those folders hold none.
		return renderRootsAs(a.env.Err, "No sessions indexed. 'tally scan' (or 'tally sessions --scan') reads the agents' logs in:", a.agentRoots(), a.env.Home)
	}
	fmt.Fprintln(a.env.Err, "No sessions match.")
	return nil
}

// sessionQuery is a store filter plus what only a view can decide:
// whether a session has ended depends on the clock, not on stored facts.
type sessionQuery struct {
	Filter tally.SessionFilter
	Active bool
}

func (q sessionQuery) run(ctx context.Context, st store.Store, now time.Time) ([]tally.Session, error) {
	f := q.Filter
	if q.Active {
		// Anything silent longer than EndedAfter has ended; the store can
		// drop those. Sessions that said they ended are dropped below, so
		// the limit applies after that.
		f.Since = now.Add(-tally.EndedAfter)
		f.Limit = 0
	}
	recs, err := st.Records(ctx, f)
	if err != nil {
		return nil, err
	}
	out := make([]tally.Session, 0, len(recs))
	for i := range recs {
		s := recs[i].Session(now)
		if q.Active && s.Activity == tally.ActivityEnded {
			continue
		}
		out = append(out, s)
		if q.Active && q.Filter.Limit > 0 && len(out) == q.Filter.Limit {
			break
		}
	}
	return out, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
