package planner

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/plan"
)

// Options configure a Planner. Folder is required.
type Options struct {
	// Folder is the plan folder of a session's project: its Dir
	// (config.Plans.PlanFolder) and the project's Root, which Dir must
	// lie inside; a zero Folder (Dir "") for a project Tally must not look
	// for a plan in (a path that is not absolute).
	Folder func(project string) plan.Folder
	// Store holds the markers until they are applied, and their results
	// after: a crash before they are applied loses none.
	Store tally.MarkerStore
	// Now dates what markers do not (nil: time.Now).
	Now func() time.Time
	// Poll is how often the plans Planner follows are looked at for
	// changes no marker made (0: 2 s).
	Poll         time.Duration
	OnDiagnostic func(tally.Diagnostic)
	// OnEvent receives a plan's news as markers make it: a task
	// completed, a step blocked, the plan complete. It is called from
	// Planner's goroutine and must not block.
	OnEvent func(Event)
}

// maxFollowed bounds the plan folders Planner remembers (caches, what was
// last seen); past it the least recently used are forgotten.
const maxFollowed = 256

// Planner applies markers and keeps the surfaces' view of plans.
type Planner struct {
	o      Options
	wake   chan struct{}
	broker *broker.Broker[Change]

	mu sync.Mutex
	// followed are the plan folders Planner has met, by folder path.
	followed map[string]*followed
	// failed says, by folder, the last error reported, so it is said once.
	failed map[string]string

	applying sync.Mutex // one round of applying at a time

	// refused counts the markers settled unapplied because their plan
	// folder was refused (plan.Refused).
	refused atomic.Int64
}

// followed is a plan folder Planner has met: its cache, and what its
// files looked like when last looked at.
type followed struct {
	project string
	root    string
	cache   *plan.Cache
	sig     string
	used    time.Time
	// kiro: Kiro's specs (plan.LoadKiro), read only: never synced.
	kiro bool
}

// Change says that a project's plan changed.
type Change struct {
	Project string
	Folder  string
}

// New builds a Planner; Run applies markers as they come.
func New(o Options) *Planner {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Poll <= 0 {
		o.Poll = 2 * time.Second
	}
	p := &Planner{o: o, wake: make(chan struct{}, 1), broker: broker.New[Change](),
		followed: map[string]*followed{}, failed: map[string]string{}}
	return p
}

// Subscribe receives the changes of plans from now on (see the broker
// package for what a full buffer does).
func (p *Planner) Subscribe(buf int) *broker.Subscription[Change] { return p.broker.Subscribe(buf) }

// FolderOf is the plan folder of the project rooted at project.
func (p *Planner) FolderOf(project string) string { return p.o.Folder(project).Dir }

// Load reads the plan of the project rooted at project, through the
// folder's cache; nil when the project has no plan folder.
func (p *Planner) Load(project string) (*plan.Plan, error) {
	if project == "" {
		return nil, nil
	}
	pf := p.o.Folder(project)
	if pf.Dir == "" {
		return nil, nil
	}
	if !isDir(pf.Dir) {
		return p.loadKiro(project)
	}
	pl, err := p.folder(project, pf).Load()
	if tally.ErrorCode(err) == tally.CodeNotFound {
		return nil, nil
	}
	return pl, err
}

// folder is pf with Planner's clock and its cache, following it.
func (p *Planner) folder(project string, pf plan.Folder) plan.Folder {
	f := p.follow(project, pf.Dir, pf.Root, false)
	return plan.Folder{Dir: pf.Dir, Root: pf.Root, Now: p.o.Now, Cache: f.cache}
}

// loadKiro reads the Kiro specs of a project with no plan folder (see
// plan.LoadKiro), following them; nil when it has none.
func (p *Planner) loadKiro(project string) (*plan.Plan, error) {
	dir := filepath.Join(project, plan.KiroSpecs)
	if !isDir(dir) {
		return nil, nil
	}
	p.follow(project, dir, project, true)
	pl, err := plan.LoadKiro(project)
	if tally.ErrorCode(err) == tally.CodeNotFound {
		return nil, nil
	}
	return pl, err
}

// follow remembers the plan in dir, so that Look sees it change.
func (p *Planner) follow(project, dir, root string, kiro bool) *followed {
	p.mu.Lock()
	defer p.mu.Unlock()
	f := p.followed[dir]
	if f == nil {
		if len(p.followed) >= maxFollowed {
			p.forgetOldest()
		}
		f = &followed{project: project, root: root, cache: &plan.Cache{}, kiro: kiro}
		p.followed[dir] = f
	}
	f.used = p.o.Now()
	return f
}

func (p *Planner) forgetOldest() {
	var oldest string
	var at time.Time
	for dir, f := range p.followed {
		if oldest == "" || f.used.Before(at) {
			oldest, at = dir, f.used
		}
	}
	delete(p.followed, oldest)
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Committed hands over the markers of a round the indexer committed. It
// never blocks: the markers are already in the store, and Planner is only
// woken.
func (p *Planner) Committed(ms []tally.FoundMarker) {
	if len(ms) == 0 {
		return
	}
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Run applies markers as they are committed, and what a crash left
// pending, until ctx ends; every Poll it looks at the plans it follows
// for changes no marker made.
func (p *Planner) Run(ctx context.Context) error {
	tick := time.NewTicker(p.o.Poll)
	defer tick.Stop()
	p.apply(ctx)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-p.wake:
			p.apply(ctx)
		case <-tick.C:
			p.Look()
		}
	}
}

func (p *Planner) apply(ctx context.Context) {
	if err := p.ApplyPending(ctx); err != nil && ctx.Err() == nil {
		p.diag(tally.Diagnostic{Msg: "plans: " + err.Error()})
	}
}

func (p *Planner) diag(d tally.Diagnostic) {
	if p.o.OnDiagnostic != nil {
		p.o.OnDiagnostic(d)
	}
}

// failure reports a plan folder that cannot be written, once until what
// is wrong changes; ok clears it.
func (p *Planner) failure(dir string, err error) {
	p.mu.Lock()
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	said := p.failed[dir] == msg
	if msg == "" {
		delete(p.failed, dir)
	} else {
		p.failed[dir] = msg
	}
	p.mu.Unlock()
	if msg != "" && !said {
		if plan.Refused(err) {
			p.diag(tally.Diagnostic{Path: dir, Msg: "plan folder refused, its markers are rejected: " + msg})
			return
		}
		p.diag(tally.Diagnostic{Path: dir, Msg: "plan not updated, its markers wait: " + msg})
	}
}

// Refused counts the markers not applied because their plan folder was
// one Tally refuses to write (a link, a FIFO, another user's file, a
// folder other users can write to or outside its project).
func (p *Planner) Refused() int64 { return p.refused.Load() }
