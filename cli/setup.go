package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/setup"
)

type setupOptions struct {
	*app
	opts   setup.Options
	dryRun bool
}

func (a *app) setupCommand() *cobra.Command {
	o := &setupOptions{app: a}
	names := strings.Join(setupNames(), "|")
	cmd := &cobra.Command{
		Use:   "setup " + names,
		Short: "Make an agent use Tally: its task tools over MCP, and hooks that keep it on track",
		Long: `Set an agent up to report its progress to Tally and receive Tally's help, by
editing the agent's user settings (nothing in the agent changes):

  - registers 'tally mcp' as its MCP server (durable task tools);
  - installs 'tally hook AGENT' as its hooks where the agent has them: after a
    compaction the model gets back its unfinished items; reminders and a
    nudge to verify the work; a permission prompt marks the session as
    needing input; with --guard-stop, a stop is refused while unblocked
    items remain (never more than twice in a few minutes); for Claude Code and
    Codex, with --remote-approvals, a permission prompt (or Claude Code's plan
    to approve) shows on the board, where (or with tally allow/deny) it can be
    answered; Codex runs that hook only trusted, so setup trusts it;
  - for Claude Code, with --enable-todo-tools, sets CLAUDE_CODE_ENABLE_TODO_TOOLS=1;
  - for Gemini CLI, with --enable-task-tracker, sets experimental.taskTracker.

It merges, never overwrites: other settings stay as they are, each changed file
is backed up first (FILE.tally-backup-TIME), and a second run changes nothing.
--dry-run prints the changes as a diff; --uninstall removes only Tally's entries.
A settings file that cannot be read as the agent reads it is left untouched.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: setupNames(),
		RunE:      func(cmd *cobra.Command, args []string) error { return runSetup(cmd.Context(), o, args[0]) },
	}
	f := cmd.Flags()
	f.StringVar(&o.opts.Tally, "tally", "", "the tally the agent runs (default: this one, unless it is a throwaway build of go run)")
	f.BoolVar(&o.opts.GuardStop, "guard-stop", false, "also install the Stop hook that refuses a stop while unblocked items remain")
	f.BoolVar(&o.opts.RemoteApprovals, "remote-approvals", false, "Claude Code and Codex: also install the PermissionRequest hook (trusted in Codex's config.toml), so a permission prompt or a plan can be answered from the board, a phone or tally allow/deny (waits hooks.approval_wait, default 2m, then the agent asks)")
	f.BoolVar(&o.opts.EnableTodoTools, "enable-todo-tools", false, "Claude Code: set CLAUDE_CODE_ENABLE_TODO_TOOLS=1 (the newest models get TodoWrite and Task tools only with it)")
	f.BoolVar(&o.opts.EnableTaskTracker, "enable-task-tracker", false, "Gemini CLI: set experimental.taskTracker (Gemini 3 models get no write_todos: the tracker is their list)")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the changes as a unified diff and write nothing")
	f.BoolVar(&o.opts.Uninstall, "uninstall", false, "remove Tally's entries (and only those)")
	return cmd
}

func runSetup(_ context.Context, o *setupOptions, name string) error {
	d := agents.Find(tally.Agent(name))
	if d == nil || d.Setup == nil {
		return &usageError{err: fmt.Errorf("no setup for %q (known: %s)", name, strings.Join(setupNames(), ", "))}
	}
	target := d.Setup(o.dirs(d))
	bin, binNotes, err := o.setupBinary(name)
	if err != nil {
		return err
	}
	opts := o.opts
	opts.Tally = bin
	record := o.ownedPath()
	if opts.Owned, err = setup.LoadOwned(record); err != nil {
		return err
	}
	plan, err := target.Plan(opts)
	if err != nil {
		return err
	}
	out := o.env.Out
	for _, e := range plan.Edits {
		if e.Linked() && e.Changed() {
			fmt.Fprintf(out, "%s is a link to %s: the change is written there, through the link, which stays (the backup is made beside %s)\n",
				e.Path, e.Target, filepath.Base(e.Target))
		}
		switch {
		case !e.Changed():
			fmt.Fprintf(out, "%s: unchanged\n", e.Path)
		case o.dryRun:
			fmt.Fprint(out, e.Diff())
		default:
			fmt.Fprintf(out, "%s:\n", e.Path)
			for _, w := range e.What {
				fmt.Fprintf(out, "  %s\n", w)
			}
		}
	}
	if !o.dryRun && plan.Changed() {
		backups, err := setup.Apply(plan, o.now())
		for _, b := range backups {
			fmt.Fprintf(out, "backup: %s\n", b)
		}
		if err != nil {
			return err
		}
		if plan.Owned != nil {
			if err := setup.SaveOwned(record, plan.Owned); err != nil {
				return fmt.Errorf("keeping the record of what setup added (%s): %w", record, err)
			}
		}
	}
	for _, n := range append(binNotes, plan.Notes...) {
		fmt.Fprintf(out, "note: %s\n", n)
	}
	return nil
}

// ownedPath is where setup keeps the record of the entries it added
// (setup.Owned), beside Tally's log.
func (o *setupOptions) ownedPath() string {
	return filepath.Join(filepath.Dir(o.logPath()), "setup.json")
}

// setupNames are the agents tally setup takes: those whose descriptor
// says what setting them up edits.
func setupNames() []string {
	var names []string
	for _, d := range agents.All {
		if d.Setup != nil {
			names = append(names, string(d.Agent))
		}
	}
	sort.Strings(names)
	return names
}
