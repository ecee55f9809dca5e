package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter"
	"github.com/tallyhq/tally/agents"
	"github.com/tallyhq/tally/config"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/index"
)

// hookDeadline is how long a hook call may take, from the start of the
// process to its answer. Agents wait for their hooks; past this Tally
// answers nothing rather than late.
const hookDeadline = 900 * time.Millisecond

// hookAgent is an agent whose hooks tally hook answers: its descriptor,
// with the hook facts (hook.Spec) it gives.
type hookAgent struct {
	d *adapter.Descriptor
	*hook.Spec
}

// hookAgentOf is the agent name, when Tally answers its hooks.
func hookAgentOf(name string) (hookAgent, bool) {
	d := agents.Find(tally.Agent(name))
	if d == nil || d.Hooks == nil || !d.Reads().Has(adapter.ReadsLines) {
		return hookAgent{}, false
	}
	return hookAgent{d: d, Spec: d.Hooks}, true
}

// listOf names the session's Tally list, "" if the agent's MCP servers
// cannot know their session.
func (h hookAgent) listOf(session string) string {
	if h.SessionEnv == "" {
		return ""
	}
	return hook.SessionList(h.d.Agent, session)
}

// sessionList is the list a `tally mcp` started by an agent uses when a
// call names none: its session's, when the agent says which that is.
func sessionList(getenv func(string) string) string {
	for _, name := range hookAgentNames() {
		h, _ := hookAgentOf(name)
		if id := getenv(h.SessionEnv); h.SessionEnv != "" && id != "" {
			return h.listOf(id)
		}
	}
	return ""
}

// hookAgentNames are the agents tally hook answers, sorted.
func hookAgentNames() []string {
	var names []string
	for _, d := range agents.All {
		if _, ok := hookAgentOf(string(d.Agent)); ok {
			names = append(names, string(d.Agent))
		}
	}
	sort.Strings(names)
	return names
}

type hookOptions struct {
	*app
	opts hook.Options
	// detect are the rules of detection, which a fold the hook commits
	// carries as the indexer's do.
	detect detect.Rules
	// store, when set, is the store calls are answered with (serve's);
	// else each call opens it.
	store hookStore
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
guard), for agents whose hooks can post to a URL.`,
		Args:      cobra.ExactArgs(1),
		ValidArgs: hookAgentNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.opts, o.detect = o.hookSettings(cmd.Flags(), o.hookLog(args[0]))
			runHook(cmd.Context(), o, args[0])
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.opts.GuardStop, "guard-stop", false, "refuse a stop while unfinished, unblocked items remain")
	f.IntVar(&o.opts.StopBlocks, "stop-blocks", hook.DefaultStopBlocks, "stops refused within --stop-window before the agent may stop anyway (hooks.stop_blocks)")
	f.DurationVar(&o.opts.StopWindow, "stop-window", hook.DefaultStopWindow, "the window --stop-blocks counts in (hooks.stop_window)")
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

// hookSettings are the rules' options: [hooks] from the settings file,
// then the flags given. A settings file that cannot be read is logged and
// the defaults used: a broken setting must not break the agent.
func (o *hookOptions) hookSettings(flags *pflag.FlagSet, log *hookLogger) (hook.Options, detect.Rules) {
	opts := hook.Options{GuardStop: o.opts.GuardStop}
	c, err := o.loadConfig(settingFlags{})
	if err != nil {
		log.printf("the settings file cannot be read (%v): hooks use the defaults", unwrap(err))
		c = config.Default()
	}
	opts = hookOptionsOf(c.Hooks, opts.GuardStop)
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
	return opts, detectRules(c)
}

// hookOptionsOf are the rules' options [hooks] gives (0 reminders: none).
func hookOptionsOf(h config.Hooks, guardStop bool) hook.Options {
	opts := hook.Options{GuardStop: guardStop, StopBlocks: h.StopBlocks, StopWindow: h.StopWindow.Duration, RemindAfter: h.RemindAfter}
	if opts.RemindAfter == 0 {
		opts.RemindAfter = -1
	}
	return opts
}

// runHook answers one hook call on standard input. Whatever goes wrong,
// it prints nothing and returns: the failure goes to Tally's log, never to
// the agent.
func runHook(ctx context.Context, o *hookOptions, name string) {
	start := o.now()
	o.callHook(ctx, name, start, o.hookLog(name), func() ([]byte, error) { return hook.ReadPayload(o.env.In) }, func(out []byte) error {
		_, err := o.env.Out.Write(out)
		return err
	})
}

// callHook is the one path of every hook call, on a command line or over
// HTTP: it reads the call, decides as of start, hands answer what to answer
// (nothing when there is nothing to say or anything failed) within
// hookDeadline, then lets a long fold be saved in what is left of the
// deadline. Failures go to log.
func (o *hookOptions) callHook(ctx context.Context, name string, start time.Time, log *hookLogger, read func() ([]byte, error), answer func([]byte) error) {
	ag, ok := hookAgentOf(name)
	if !ok {
		log.printf("no hooks for agent %q (known: %s)", name, strings.Join(hookAgentNames(), ", "))
		return
	}
	ctx, cancel := context.WithTimeout(ctx, hookDeadline)
	defer cancel()
	answers := make(chan []byte, 1)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		answerHook(ctx, o, ag, start, log, read, func(out []byte) { answers <- out })
	}()
	var out []byte
	select {
	case out = <-answers:
	case <-finished:
		select {
		case out = <-answers:
		default: // nothing to answer
		}
	case <-ctx.Done():
		log.printf("no answer within %v: answered nothing", hookDeadline)
		return
	}
	if len(out) > 0 {
		if err := answer(out); err != nil {
			log.printf("writing the answer: %v", err)
		}
	}
	// What is left (saving a long fold) may use the rest of the deadline.
	select {
	case <-finished:
	case <-ctx.Done():
	}
}

// hookServer answers the hook calls serve receives over HTTP, with serve's
// store and settings, on the path tally hook takes.
type hookServer struct {
	o *hookOptions
}

// AnswerHook answers one call; known is false for an agent Tally has no
// hooks for.
func (h hookServer) AnswerHook(ctx context.Context, agent string, guardStop bool, payload []byte) (answer []byte, known bool) {
	if _, ok := hookAgentOf(agent); !ok {
		return nil, false
	}
	o := *h.o
	o.opts.GuardStop = guardStop
	o.callHook(ctx, agent, o.now(), o.hookLog(agent), func() ([]byte, error) { return payload, nil }, func(out []byte) error {
		answer = out
		return nil
	})
	return answer, true
}

// hookLockWait bounds each wait for the store's write lock: another
// process may hold it (an indexer's commit, a long transaction), and the
// answer must still come in time.
const hookLockWait = 250 * time.Millisecond

// answerHook reads the call, the session's lists and the hooks' memory,
// decides, saves the memory, and gives answer the bytes to print; then it
// saves a long fold for the next call. On any failure it answers nothing.
func answerHook(ctx context.Context, o *hookOptions, ag hookAgent, start time.Time, log *hookLogger, read func() ([]byte, error), answer func([]byte)) {
	payload, err := read()
	if err != nil {
		log.printf("reading the call: %v", err)
		return
	}
	ev, err := ag.Format.Parse(payload)
	if err != nil {
		log.printf("%v", err)
		return
	}
	log.setEvent(ev)
	if ev.AgentID != "" {
		return // a sub-agent's call: the lists are the main agent's
	}
	st := o.store
	if st == nil {
		st = o.openHookStore(ctx, log)
	}
	lr := ag.d.New(o.dirs(ag.d)).(tally.LineReader)
	ixo := index.Options{Adapters: []tally.Adapter{lr}, Detect: o.detect, Now: o.env.Now}
	if st != nil {
		ixo.Store = st
	}
	fold, err := foldTranscript(ctx, st, ixo, lr, ev)
	if err != nil {
		log.printf("%v", err)
		return
	}
	if fold.refused != "" {
		log.printf("the transcript is not read: %s", fold.refused)
	}
	sess := hook.Session{}
	if own := fold.state.Lists[""]; own != nil && own.Len() > 0 {
		sess.Lists = append(sess.Lists, hook.List{Kind: hook.ListOwn, Items: own.Items()})
	}
	if name := ag.listOf(ev.SessionID); st != nil && name != "" {
		lctx, cancel := context.WithTimeout(ctx, hookStoreWait)
		l, err := st.TaskList(lctx, name)
		cancel()
		if err == nil {
			sess.Lists = append(sess.Lists, hook.List{Kind: hook.ListTally, Name: l.Name, Items: l.Record().Lists[""]})
		} else if tally.ErrorCode(err) != tally.CodeNotFound {
			log.printf("reading the session's Tally list: %v", err)
		}
	}
	opts := o.opts
	opts.Now = start
	opts.OwnReminders = ag.OwnReminders
	opts.ResumeLater = ag.ResumeLater
	if ev.Name == hook.SessionStart {
		opts.Protocol = o.planProtocol(ev.Cwd)
	}
	answer(ag.Format.Encode(ev, decideHook(ctx, st, ev, sess, fold, ag.Turn, opts, log)))
	if st != nil && fold.fold != nil && fold.read >= writeBackAfter {
		wctx, cancel := context.WithTimeout(ctx, hookLockWait)
		defer cancel()
		if err := fold.fold.Commit(wctx); err != nil {
			log.printf("saving the fold of %s: %v", ev.TranscriptPath, err)
		}
	}
}

// savedHook is what the store keeps for a session's hooks: the rules'
// memory, and how far into the transcript turns were counted.
type savedHook struct {
	State hook.State `json:"state"`
	Seen  int64      `json:"seen"`
}

// decideHook runs the rules inside the store's hook transaction, so the
// hook processes of a session see each other's memory. Without the store,
// it decides with no memory, which blocks and reminds of nothing.
func decideHook(ctx context.Context, st hookStore, ev hook.Event, sess hook.Session, fold foldResult, turn []byte, opts hook.Options, log *hookLogger) hook.Answer {
	var ans hook.Answer
	decided := false
	if st != nil {
		lctx, cancel := context.WithTimeout(ctx, hookLockWait)
		defer cancel()
		err := st.UpdateHook(lctx, ev.SessionID, opts.Now, func(raw []byte) ([]byte, tally.Signal, error) {
			var saved savedHook
			if len(raw) > 0 {
				if err := json.Unmarshal(raw, &saved); err != nil {
					log.printf("the saved hook state is damaged (%v); starting afresh", err)
					saved = savedHook{}
				}
			}
			s := sess
			s.NewTurns, saved.Seen = countTurns(fold.state.Path, saved.Seen, fold.size, turn)
			var next hook.State
			ans, next = hook.Decide(ev, s, saved.State, opts)
			saved.State = next
			js, err := json.Marshal(saved)
			decided = true
			return js, signalOf(ans), err
		})
		if err != nil {
			log.printf("the hooks' memory is out of reach (%v): answering without it", err)
			decided = false
		}
	}
	if !decided {
		ans, _ = hook.Decide(ev, sess, hook.State{Unavailable: true}, opts)
	}
	return ans
}

// signalOf is what an answer tells the store about the session.
func signalOf(a hook.Answer) tally.Signal {
	switch {
	case a.NeedsInput:
		return tally.SignalAsking
	case a.Active:
		return tally.SignalWorking
	}
	return tally.SignalNone
}

// hookLogger writes the failures of one hook call to Tally's log. The
// worker and the deadline may both write: mu guards the event.
type hookLogger struct {
	path  string
	agent string
	now   func() time.Time
	mu    sync.Mutex
	event hook.Event
}

func (l *hookLogger) setEvent(ev hook.Event) {
	l.mu.Lock()
	l.event = ev
	l.mu.Unlock()
}

func (o *hookOptions) hookLog(agent string) *hookLogger {
	return &hookLogger{path: o.logPath(), agent: agent, now: o.env.Now}
}

func (l *hookLogger) printf(format string, args ...any) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s hook %s", l.now().UTC().Format(time.RFC3339), l.agent)
	l.mu.Lock()
	ev := l.event
	l.mu.Unlock()
	if ev.Name != "" {
		fmt.Fprintf(&b, " %s session=%s", ev.Name, ev.SessionID)
	}
	b.WriteString(": ")
	fmt.Fprintf(&b, format, args...)
	appendLog(l.path, b.String())
}
