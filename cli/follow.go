package cli

import (
	"github.com/spf13/cobra"

	"github.com/tallyhq/tally/follow"
)

func (a *app) followCommand() *cobra.Command {
	o := &streamOptions{app: a}
	cmd := &cobra.Command{
		Use:   "follow",
		Short: "Show a piped agent stream as one todo list updated in place",
		Long: `Read an agent's stream on standard input and draw its todo list once, updated
in place as the agent works (no copies in the scroll-back); the agent's other
output passes through above the list. A new agent or a new list replaces the
list, an empty list clears it, and the end of a turn keeps the final list.
When standard output is not a terminal, the list is printed once per change.`,
		Example: `  codex exec --json "add a test" | tally follow
  claude -p "…" --output-format stream-json --verbose | tally follow`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			mode := follow.ModePlain
			if o.env.OutTTY {
				mode = follow.ModeTerminal
			}
			return follow.Run(cmd.Context(), o.env.In, o.env.Out, follow.Options{
				Stream: o.stream(), Mode: mode, NoColor: o.env.Getenv("NO_COLOR") != "",
			})
		},
	}
	o.agentFlag(cmd)
	return cmd
}
