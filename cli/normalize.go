package cli

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/normalize"
)

type streamOptions struct {
	*app
	Agent string
}

func (o *streamOptions) stream() normalize.Options {
	return normalize.Options{Agent: o.Agent, Adapters: o.streamAdapters(), Now: o.env.Now}
}

// agentFlag adds --agent, the stream's format, to cmd.
func (o *streamOptions) agentFlag(cmd *cobra.Command) {
	o.Agent = normalize.AgentAuto
	f := newAgentFlag(&o.Agent, o.streamAgents(), false)
	cmd.Flags().Var(f, "agent", "the stream's format: "+f.names())
}

func (a *app) normalizeCommand() *cobra.Command {
	o := &streamOptions{app: a}
	cmd := &cobra.Command{
		Use:   "normalize [FILE...]",
		Short: "Turn any agent stream or log into unified todo_list JSONL",
		Long: `Read an agent's stream or log (standard input, or each FILE in turn) and write
one unified todo_list event per change of a list (docs/formats.md):

  {"type":"todo_list","eventId":…,"agentId":…,"agentType":…,"timestamp":…,
   "todoId":…,"items":[{"text":…,"status":…}], …Tally's richer fields}

The format is told from the first lines unless --agent names it. Malformed
lines are reported on standard error with their line numbers and skipped;
when no line of the input could be read, normalize exits 2. A pretty-printed
JSON document (its first line a lone "{" or "[") is read whole: each JSON
value in it, each element of a top-level array, is one line.`,
		Example: `  codex exec --json "fix the tests" | tally normalize
  tally normalize --agent claude ~/.claude/projects/*/SESSION.jsonl`,
		RunE: func(cmd *cobra.Command, args []string) error { return runNormalize(cmd.Context(), o, args) },
	}
	o.agentFlag(cmd)
	return cmd
}

func runNormalize(ctx context.Context, o *streamOptions, files []string) error {
	if len(files) == 0 {
		return normalize.Run(ctx, o.env.In, o.env.Out, o.env.Err, o.stream())
	}
	for _, name := range files {
		if err := normalizeFile(ctx, o, name); err != nil {
			return err
		}
	}
	return nil
}

func normalizeFile(ctx context.Context, o *streamOptions, name string) error {
	f, err := os.Open(name)
	if err != nil {
		return tally.Errorf(tally.CodeNotFound, "normalize", "%v", err)
	}
	defer f.Close()
	return normalize.Run(ctx, f, o.env.Out, prefixed{w: o.env.Err, prefix: name + ": "}, o.stream())
}

// prefixed names the file in every diagnostic line of a multi-file run.
type prefixed struct {
	w      io.Writer
	prefix string
}

func (p prefixed) Write(b []byte) (int, error) {
	if _, err := io.WriteString(p.w, p.prefix); err != nil {
		return 0, err
	}
	return p.w.Write(b)
}
