package hookservice

import (
	"context"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/tasks"
)

// Deadline is how long a hook call may take, from its start to its answer.
// Agents wait for their hooks; past this Tally answers nothing rather than
// late.
const Deadline = 900 * time.Millisecond

// StoreWait bounds opening the store and each read of it: well within
// Deadline, so a store that does not answer leaves time to answer from the
// transcript.
const StoreWait = 250 * time.Millisecond

// LockWait bounds each wait for the store's write lock: another process
// may hold it (an indexer's commit, a long transaction), and the answer
// must still come in time.
const LockWait = 250 * time.Millisecond

// Agent is an agent whose hooks are answered: its hook facts, and its
// adapter over the homes Tally indexes.
type Agent struct {
	Spec    *hook.Spec
	Adapter tally.LineReader
}

// Store is what answering a hook needs of the store.
type Store interface {
	// The transcript's saved state, and the commit of a long fold.
	tally.Store
	// The hooks' memory, in one transaction per call.
	tally.HookKeeper
	// The session's Tally list.
	TaskList(ctx context.Context, name string) (tasks.List, error)
	// Requests asked of the user, and the decisions on them.
	tally.RequestKeeper
}

// Options configure a Service.
type Options struct {
	// Agent finds the agent a call names; false for one Tally answers no
	// hooks of.
	Agent func(name string) (Agent, bool)
	// Store opens the store a call is answered with (nil: none). It is
	// not closed: the command line's process ends with the answer, and
	// closing the last connection to a database in WAL mode checkpoints
	// it, which costs more than the whole answer; a server passes its own
	// store.
	Store func(ctx context.Context) (Store, error)
	// Rules are the rules' options for every call: [hooks] of the
	// settings, then the command's flags.
	Rules hook.Options
	// Detect are detection's rules, which a fold the service commits
	// carries as the indexer's do.
	Detect detect.Rules
	// Protocol is how an agent working in dir keeps its project's plan
	// (planner.Protocol), "" where the project keeps none.
	Protocol func(dir string) string
	// Plan says where the plan of the project of an agent working in dir
	// stands (planview.Standing), "" where it keeps none.
	Plan func(dir string) string
	Now  func() time.Time
	// Log writes one line to Tally's log.
	Log func(line string)
	// ApprovalWait is how long a permission request waits for a decision
	// taken elsewhere (the board, tally allow): 0 leaves every request to
	// the agent. It must stay under the agent's own timeout of the hook.
	ApprovalWait time.Duration
	// ApprovalPoll is how often a waiting request looks for its decision
	// (default 50 ms).
	ApprovalPoll time.Duration
}

// Service answers hook calls. It holds no state of its own between calls:
// what the hooks remember is in the store.
type Service struct {
	o Options
}

// New makes a Service.
func New(o Options) *Service {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Log == nil {
		o.Log = func(string) {}
	}
	if o.Protocol == nil {
		o.Protocol = func(string) string { return "" }
	}
	if o.Plan == nil {
		o.Plan = func(string) string { return "" }
	}
	if o.ApprovalPoll <= 0 {
		o.ApprovalPoll = 50 * time.Millisecond
	}
	return &Service{o: o}
}

// Call is one hook call.
type Call struct {
	// Agent is the agent's name, as `tally hook AGENT` and the URL give it.
	Agent string
	// Read reads the call's JSON (standard input, a request's body).
	Read func() ([]byte, error)
	// Reply gives the agent the answer; it is not called when there is
	// nothing to say.
	Reply func(answer []byte) error
	// GuardStop turns the stop guard on for this call.
	GuardStop bool
	// Start is when the call began: the deadline counts from it, and the
	// rules decide as of it.
	Start time.Time
}

// Knows tells whether the service answers the hooks of agent.
func (s *Service) Knows(agent string) bool {
	_, ok := s.o.Agent(agent)
	return ok
}

// Answer answers one call: it reads it, decides as of c.Start, replies
// within Deadline (nothing when there is nothing to say or anything
// failed), then lets a long fold be committed in what is left of the
// deadline. A permission request that waits for a decision taken
// elsewhere has ApprovalWait more. Failures go to the log.
func (s *Service) Answer(ctx context.Context, c Call) {
	log := s.logger(c.Agent)
	ag, ok := s.o.Agent(c.Agent)
	if !ok {
		log.printf("no hooks for agent %q", c.Agent)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, Deadline+s.o.ApprovalWait)
	defer cancel()
	fast, cancelFast := context.WithTimeout(ctx, Deadline)
	defer cancelFast()
	answers := make(chan []byte, 1)
	finished := make(chan struct{})
	waiting := make(chan struct{})
	var once sync.Once
	go func() {
		defer close(finished)
		s.answer(fast, ag, c, log, func(out []byte) { answers <- out }, &wait{ctx: ctx, started: func() { once.Do(func() { close(waiting) }) }})
	}()
	var out []byte
	deadline := fast.Done()
answered:
	for {
		select {
		case out = <-answers:
			break answered
		case <-finished:
			select {
			case out = <-answers:
			default: // nothing to answer
			}
			break answered
		case <-waiting:
			// The request waits for its decision: its bound is its own.
			waiting, deadline = nil, ctx.Done()
		case <-deadline:
			bound := Deadline
			if waiting == nil {
				bound += s.o.ApprovalWait
			}
			log.printf("no answer within %v: answered nothing", bound)
			return
		}
	}
	if len(out) > 0 {
		if err := c.Reply(out); err != nil {
			log.printf("writing the answer: %v", err)
		}
	}
	// What is left (committing a long fold) may use the rest of the
	// deadline.
	select {
	case <-finished:
	case <-fast.Done():
	}
}

// wait is what a responder that waits for a decision taken elsewhere is
// given: the call's whole bound, and started, which it calls once it
// waits, so the call is no longer held to Deadline.
type wait struct {
	ctx     context.Context
	started func()
}
