package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally/index"
)

type watchOptions struct {
	*app
	JSON bool
}

func (a *app) watchCommand() *cobra.Command {
	o := &watchOptions{app: a}
	cmd := &cobra.Command{
		Use:   "watch",
		Short: "Print one line per session change, live",
		Long: `Index new history, then follow the agents' logs and print one line each
time a session changes:

  HH:MM:SS agent project title  X/Y  ▸ current step

With --json, one JSON object per change instead:
  {"type":"session_updated","session":{…}} or {"type":"session_removed","id":"…"}

Runs until interrupted (Ctrl-C), then exits 0.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runWatch(cmd.Context(), o) },
	}
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON object per change")
	return cmd
}

func runWatch(ctx context.Context, o *watchOptions) error {
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	f, err := o.follow(ctx, st)
	if err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return f.stop()
		case err := <-f.Done:
			f.unsub()
			return err
		case ch, ok := <-f.Changes:
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

func (o *watchOptions) print(ch index.Change) error {
	if o.JSON {
		return RenderChangeJSON(o.env.Out, ch, o.now())
	}
	return RenderChange(o.env.Out, ch, LineOptions{
		Width: o.env.width(), Now: o.now(), Home: o.env.Home, Color: o.env.color(),
	})
}
