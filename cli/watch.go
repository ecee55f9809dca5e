package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store"
)

type watchOptions struct {
	*app
	JSON     bool
	settings settingFlags
	// last is each session as the last line about it showed it, so that
	// the next line can say what changed; projects are those named so far.
	last     map[string]tally.Session
	projects map[string]bool
}

func (a *app) watchCommand() *cobra.Command {
	o := &watchOptions{app: a}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Print one line per session change, live",
		Long: `Index new history, then follow the agents' logs and print one line each
time a session changes, naming each item whose state changed:

  HH:MM:SS id agent project title  X/Y  ✓ item (completed); ◼ item (in progress)

or, when no item changed, the step being worked on:

  HH:MM:SS id agent project title  X/Y  ◼ current step

A session's log lines that change none of this (a tool call, a reply) print
nothing; the first line about a session Tally knew before watch started
names what changed since then.

The id is the shortest prefix (8 characters at least) that no other
session named so far shares; 'tally show' takes it.

A session that needs a person says so at the end of its line, most urgent
first: needs input, stalled, looping, no progress, blocked, finished. It is
printed again the moment it stalls, with nothing new in its log.

With --json, one JSON object per change instead:
  {"type":"session_updated","session":{…}} or {"type":"session_removed","id":"…"}
(the session's "flags" say the same; see SessionJSON.md).

Sessions that need a person are notified once each, as they happen: to
--notify-webhook URLs, to the desktop (notify-send), and as the settings file
says (see 'tally config'). Nothing is notified for what the logs held when
watch started.

Runs until interrupted (Ctrl-C), then exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runWatch(cmd.Context(), o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object per change")
	addSettingFlags(cmd, &o.settings)
	return cmd
}

func runWatch(ctx context.Context, o *watchOptions) error {
	if _, err := o.useSettings(o.settings); err != nil {
		return err
	}
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	l, err := o.newLive(ctx, st, liveOptions{bar: true, notify: notifySessions, skipped: o.printSkipped})
	if err != nil {
		return err
	}
	if err := l.CatchUp(ctx); err != nil {
		return err
	}
	// What the store holds before the indexer runs again is the "before"
	// of the first lines: read after, it could already hold a change the
	// first line is about, which would then look like no change at all.
	if err := o.remember(ctx, st); err != nil {
		l.closeNews()
		return err
	}
	f := l.Follow(ctx)
	o.nowLive()
	for {
		select {
		case <-ctx.Done():
			return f.stop()
		case err := <-f.Done:
			f.Changes.Close()
			return err
		case ch, ok := <-f.Changes.C:
			if !ok {
				return f.stop()
			}
			if err := o.print(ch); err != nil {
				f.stop()
				return err
			}
		}
	}
}

// remember takes every session the store holds as the first lines'
// "before": the first change to one, active or resumed long after, names
// its items rather than its step.
func (o *watchOptions) remember(ctx context.Context, st store.Store) error {
	o.last, o.projects = make(map[string]tally.Session), make(map[string]bool)
	if o.JSON {
		return nil
	}
	known, err := sessionQuery{}.run(ctx, st, o.now())
	for _, s := range known {
		o.last[s.ID] = s
	}
	return err
}

func (o *watchOptions) print(ch index.Change) error {
	now := o.now()
	if o.JSON {
		return RenderChangeJSON(o.env.Out, ch, now)
	}
	opts := LineOptions{Width: o.env.width(), Now: now, Home: o.env.Home, Color: o.env.color()}
	if ch.Kind == index.SessionRemoved {
		delete(o.last, ch.ID)
		return RenderChange(o.env.Out, ch, opts)
	}
	next := ch.Record.Session(now)
	prev, known := o.last[ch.ID]
	switch {
	case known && !worthALine(&prev, &next), !known && saysNothing(&next):
		o.last[ch.ID] = next
		return nil
	case known:
		opts.Previous = &prev
	}
	for p := range o.projects {
		opts.Others = append(opts.Others, p)
	}
	o.projects[ch.Record.Project] = true
	o.last[ch.ID] = next
	named := make([]tally.Session, 0, len(o.last))
	for _, s := range o.last {
		named = append(named, s)
	}
	opts.ID = tally.ShortIDs(named)[ch.ID]
	return RenderChange(o.env.Out, ch, opts)
}

// worthALine tells whether a session changed in what a watch line shows:
// an item, the step under way, the activity, a flag or the title. An
// agent writes many lines that change none of them (a tool call, a
// reply), and each is committed as a change.
func worthALine(prev, next *tally.Session) bool {
	return len(sessionChanges(prev, next)) > 0 || prev.Activity != next.Activity ||
		prev.Flags != next.Flags || prev.Title != next.Title || stepOf(prev) != stepOf(next)
}

// saysNothing tells a session that has nothing to show yet: its first
// line came, with no project, title or list ("claude -  -").
func saysNothing(s *tally.Session) bool {
	return s.Project == "" && oneLine(s.Title) == "" && s.Progress.Total == 0 && len(s.SubAgents) == 0 && s.Flags.Empty()
}

// stepOf is the label of the step under way, "" when there is none.
func stepOf(s *tally.Session) string {
	if cur := s.Progress.Current; cur != nil {
		return cur.Label()
	}
	return ""
}
