package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/hookservice"
)

// hookAgent is the agent name as the hook service answers it: its hook
// facts and its adapter over the homes Tally indexes; false for an agent
// Tally answers no hooks of.
func (a *app) hookAgent(name string) (hookservice.Agent, bool) {
	d := agents.Find(tally.Agent(name))
	if d == nil || d.Hooks == nil || !d.Reads().Has(adapter.ReadsLines) {
		return hookservice.Agent{}, false
	}
	return hookservice.Agent{Spec: d.Hooks, Adapter: d.New(a.dirs(d)).(tally.LineReader)}, true
}

// sessionList is the list a `tally mcp` started by an agent uses when a
// call names none: its session's, when the agent says which that is in
// its variable (hook.Spec.SessionEnv).
func sessionList(getenv func(string) string) string {
	for _, d := range agents.All {
		if d.Hooks == nil || d.Hooks.SessionEnv == "" {
			continue
		}
		if id := getenv(d.Hooks.SessionEnv); id != "" {
			return hook.SessionList(d.Agent, id)
		}
	}
	return ""
}

// hookAgentNames are the agents tally hook answers, sorted.
func hookAgentNames() []string {
	var names []string
	for _, d := range agents.All {
		if d.Hooks != nil {
			names = append(names, string(d.Agent))
		}
	}
	sort.Strings(names)
	return names
}

type hookOptions struct {
	*app
	opts hook.Options
	// approvalWait: --approval-wait (hooks.approval_wait).
	approvalWait time.Duration
}

func (a *app) hookCommand() *cobra.Command {
	o := &hookOptions{app: a}
	cmd := &cobra.Command{
		Use:   "hook " + strings.Join(hookAgentNames(), "|"),
		Short: "Answer one of an agent's hooks (tally setup installs them): reads the hook's JSON on stdin",
		Long: `Answer one hook call of a coding agent, reading the call's JSON on standard input
and printing the answer in the agent's hook format. tally setup installs it.

  SessionStart (compact, resume)   gives the model back its unfinished items
  Stop (with --guard-stop)         refuses a stop while unblocked items remain
  UserPromptSubmit, PostToolUse    reminders, and a nudge to verify the work
  Notification                     marks the session as waiting for its user
  PermissionRequest                shows the request on the board and waits up
                                   to --approval-wait for a decision taken there
                                   or with tally allow/deny (tally setup claude
                                   --remote-approvals installs it); none in time:
                                   nothing is answered, and the agent asks

Gemini CLI's events answer the same: BeforeAgent as UserPromptSubmit,
AfterTool as PostToolUse, AfterAgent as Stop. It has no hook after a
compression, and writes a resumed session back only after SessionStart, so
after PreCompress (manual) or SessionStart (resume) the lists are given back
at the next prompt or tool result.

The session's list is read from the transcript the call names, from where the
index left off. It needs no tally server. Tally never breaks the agent: any
error, or an answer not ready within a second, prints nothing, exits 0 and is
written to Tally's log (` + "$XDG_STATE_HOME/tally/tally.log" + `).

The reminder and the stop guard's limits come from [hooks] in the settings
file (see 'tally config'); the flags override them. 'tally serve' answers
the same calls over HTTP at POST /api/hook/AGENT (?guard-stop=1 for the
guard), for agents whose hooks can post to a URL; a PermissionRequest there
gets no answer (only tally hook waits for a decision).`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: hookAgentNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			runHook(cmd.Context(), o, cmd.Flags(), args[0])
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.opts.GuardStop, "guard-stop", false, "refuse a stop while unfinished, unblocked items remain")
	f.IntVar(&o.opts.StopBlocks, "stop-blocks", hook.DefaultStopBlocks, "stops refused within --stop-window before the agent may stop anyway (hooks.stop_blocks)")
	f.DurationVar(&o.opts.StopWindow, "stop-window", hook.DefaultStopWindow, "the window --stop-blocks counts in (hooks.stop_window)")
	f.DurationVar(&o.approvalWait, "approval-wait", hook.DefaultApprovalWait, "how long a permission request waits for a decision from the board or tally allow/deny (hooks.approval_wait)")
	f.IntVar(&o.opts.RemindAfter, "remind-after", hook.DefaultRemindAfter, "assistant turns without a list update before a reminder, 0 never (hooks.remind_after)")
	return cmd
}

// isHookCommand tells whether cmd, the command a command line named, is
// tally hook.
func isHookCommand(cmd *cobra.Command) bool {
	return cmd != nil && cmd.Name() == "hook" && cmd.HasParent() && !cmd.Parent().HasParent()
}

// hookMisused logs a tally hook command line that could not be run (an
// unknown flag, a bad value, an extra argument): the agent runs what its
// settings say, and exit 2 is Claude Code's "block": one typo, or a flag
// an older tally lacks, would block every prompt and refuse every stop.
// So tally hook exits 0 whatever its command line, printing nothing, and
// says what was wrong in Tally's log.
func (a *app) hookMisused(args []string, err error) {
	appendLog(a.logPath(), fmt.Sprintf("%s hook: the command line %q cannot be run (%v): answered nothing",
		a.now().UTC().Format(time.RFC3339), strings.Join(args, " "), err))
}

// hookService is the hook service over the settings given, answering
// with the store open returns (a command opens it per call, a server
// passes its own).
//
// wait is how long a permission request waits for a decision taken
// elsewhere (0: the agent asks at once).
func (a *app) hookService(rules hook.Options, cfg *config.Config, wait time.Duration, open func(context.Context) (hookservice.Store, error)) *hookservice.Service {
	log := a.logPath()
	return hookservice.New(hookservice.Options{
		Agent: a.hookAgent, Store: open, Rules: rules, Detect: detectRules(cfg),
		Protocol: a.planProtocol, Plan: a.planStanding, Now: a.env.Now, ApprovalWait: wait,
		Log: func(line string) { appendLog(log, line) },
	})
}

// hookSettings are the rules' options: [hooks] from the settings file,
// then the flags given. A settings file that cannot be read is logged and
// the defaults used: a broken setting must not break the agent.
func (o *hookOptions) hookSettings(flags *pflag.FlagSet, agent string) (hook.Options, *config.Config) {
	c, err := o.loadConfig(settingFlags{})
	if err != nil {
		appendLog(o.logPath(), fmt.Sprintf("%s hook %s: the settings file cannot be read (%v): hooks use the defaults",
			o.now().UTC().Format(time.RFC3339), agent, unwrap(err)))
		c = config.Default()
	}
	opts := hookOptionsOf(c.Hooks)
	if flags.Changed("stop-blocks") {
		opts.StopBlocks = o.opts.StopBlocks
	}
	if flags.Changed("stop-window") {
		opts.StopWindow = o.opts.StopWindow
	}
	if flags.Changed("remind-after") {
		opts.RemindAfter = o.opts.RemindAfter
		if opts.RemindAfter == 0 {
			opts.RemindAfter = -1
		}
	}
	return opts, c
}

// hookOptionsOf are the rules' options [hooks] gives (0 reminders: none).
func hookOptionsOf(h config.Hooks) hook.Options {
	opts := hook.Options{StopBlocks: h.StopBlocks, StopWindow: h.StopWindow.Duration, RemindAfter: h.RemindAfter}
	if opts.RemindAfter == 0 {
		opts.RemindAfter = -1
	}
	return opts
}

// runHook answers one hook call on standard input. Whatever goes wrong,
// it prints nothing and returns: the failure goes to Tally's log, never to
// the agent.
func runHook(ctx context.Context, o *hookOptions, flags *pflag.FlagSet, name string) {
	start := o.now()
	rules, cfg := o.hookSettings(flags, name)
	wait := cfg.Hooks.ApprovalWait.Duration
	if flags.Changed("approval-wait") {
		wait = min(max(o.approvalWait, 0), hook.MaxApprovalWait)
	}
	svc := o.hookService(rules, cfg, wait, func(ctx context.Context) (hookservice.Store, error) { return o.openStore(ctx) })
	svc.Answer(ctx, hookservice.Call{
		Agent: name, GuardStop: o.opts.GuardStop, Start: start,
		Read: func() ([]byte, error) { return hook.ReadPayload(o.env.In) },
		Reply: func(out []byte) error {
			_, err := o.env.Out.Write(out)
			return err
		},
	})
}
