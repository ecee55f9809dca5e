package cli

import (
	"context"

	"github.com/spf13/cobra"
)

type showOptions struct {
	*app
	ID   string
	Full bool
	JSON bool
}

func (a *app) showCommand() *cobra.Command {
	o := &showOptions{app: a}
	cmd := &cobra.Command{
		Use:   "show SESSION",
		Short: "Show one session's todo list",
		Long: `Show one session (by id, or any prefix of its id that no other session
shares): agent, project, title, activity, X/Y done, then its list —
✓ completed, ◼ in progress (with its activeForm), ◻ pending, ▸ blocked,
✗ cancelled or failed, ? a status Tally does not know (with the agent's word).

While items are left to do, completed ones are folded into one "… +N done"
line; --full shows them. A list with nothing left is shown whole.
Sub-agents' lists follow, each under its id.

Exit status 3 when no session matches, 4 when the prefix matches several.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &usageError{err: errArgs("show needs one SESSION id or prefix")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			o.ID = args[0]
			return runShow(cmd.Context(), o)
		},
	}
	cmd.Flags().BoolVar(&o.Full, "full", false, "list every item, completed ones too, untruncated")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print the session as JSON")
	return cmd
}

func runShow(ctx context.Context, o *showOptions) error {
	st, err := o.openStore(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	rec, err := st.Record(ctx, o.ID)
	if err != nil {
		return err
	}
	s := rec.Session(o.now())
	if o.JSON {
		return writeJSON(o.env.Out, s)
	}
	width := o.env.width()
	if o.Full {
		width = 0
	}
	so := ShowOptions{Full: o.Full, Width: width, Now: o.now(), Home: o.env.Home, Color: o.env.color(),
		Plan: o.planLines(s.LocalProject())[s.LocalProject()]}
	if so.Markers, err = st.SessionMarkers(ctx, s.ID); err != nil {
		return err
	}
	return RenderShow(o.env.Out, s, so)
}
