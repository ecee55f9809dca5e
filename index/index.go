package index

import (
	"context"
	"runtime"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/tail"
)

// Options configure an Indexer.
type Options struct {
	Adapters []tally.Adapter
	Store    tally.Store
	// Workers read files in parallel; 0 means GOMAXPROCS.
	Workers int
	// Rescan is the period of the catch-up scan in Run; 0 means 5 s.
	Rescan time.Duration
	// CommitEvery bounds how long a scan holds folded state before
	// committing it; 0 means 2 s.
	CommitEvery time.Duration
	// PollStore is how often Run asks the store for records other
	// processes committed (task lists written by tally mcp); 0 means
	// 250 ms. A store that is a Watcher says when to ask; it is then
	// asked at most every watchedPoll besides, in case it fails to say.
	PollStore time.Duration
	// Detect are the thresholds of detection (stalls, loops, no progress);
	// the zero value means detect.DefaultRules.
	Detect       detect.Rules
	Now          func() time.Time
	OnProgress   func(ScanProgress)
	OnDiagnostic func(tally.Diagnostic)
	// Markers, when set, takes the progress markers of every round once
	// they are committed (with a tally.MarkerStore, committed in the same
	// transaction as their lines' offsets).
	Markers MarkerSink
	// SessionLists, when set, finds the Tally lists of agents' sessions,
	// shown inside their sessions (see tallylist.go).
	SessionLists SessionLists
}

// Watcher is a store that says when records were committed, by this
// process or any other, so Run reads Changed at once rather than at its
// next poll. A value may stand for several commits or none; the channel
// closes when ctx ends or the store closes. store/postgres is one
// (LISTEN/NOTIFY).
type Watcher interface {
	Watch(ctx context.Context) <-chan struct{}
}

// watchedPoll is how often Run also polls a Watcher: a safety net, since a
// watch that works tells of every commit within milliseconds.
const watchedPoll = 5 * time.Second

// ScanProgress reports a scan under way: files and bytes to read, and read
// so far.
type ScanProgress struct {
	Files, FilesDone int
	Bytes, BytesDone int64
}

// Summary is what a scan did.
type Summary struct {
	Sessions  int
	Files     int
	Lines     int64
	Bytes     int64
	Parsed    int64
	Malformed int64
	// Unreadable counts the files that could not be read at all (each
	// reported as a diagnostic); the others were read.
	Unreadable int
	// Reread counts the files read again from their start because they
	// shrank or were replaced; their lines and bytes are counted whole.
	Reread int
	// Unchanged counts the files found that held nothing new since the
	// offsets saved: they were not read.
	Unchanged int
	Elapsed   time.Duration
}

// Indexer is the one owner of every file state.
type Indexer struct {
	o      Options
	round  sync.Mutex // one round at a time; guards files and sessions
	files  map[string]*entry
	bySess map[string]map[string]bool
	broker *broker.Broker[Change]
	// w is set while Run follows the homes: Scan adds every directory it
	// walks to it.
	w *tail.Watcher
	// unsaved holds what a failed commit could not save, for the next
	// round to commit.
	unsaved     map[string]*entry
	unsavedGone []string
	// drop are records of sessions' Tally lists to remove with the next
	// commit: they are shown inside their sessions (tallylist.go).
	drop []string
	// lists indexes the lists kept as directories by their tasks, to
	// find the sessions that use them (see linkShared).
	lists *lists
	// committed are the markers of this round's commits, for Markers at
	// the end of the round: a scan's markers go together, so that those
	// of one plan are applied in time order across sessions.
	committed []tally.FoundMarker
	ready     chan struct{}
	readyOnce sync.Once
	// mark is the store's change mark when New ran: Run publishes the
	// records other processes committed after it.
	mark int64
	// loaded: the saved marks are read (load).
	loaded bool
	// names decides the one name of a directory reached by several
	// (links), for the walk and the watcher alike.
	names *tail.Names
	// unreadable are the directories the last walk could not read, so
	// that each is reported once.
	unreadable map[string]bool
	// readers keeps the workers' read buffers from one round to the
	// next: a live round reads a line or two, and allocating a reader's
	// megabyte for it would cost more than the read.
	readers sync.Pool
	// shown and due follow the live sessions (see publish); they are
	// guarded by round.
	shown map[string]shown
	due   map[string]time.Time
}

// entry is what the indexer knows of one file, or of one session of a
// database (st.Database set; found is then the database's).
type entry struct {
	found tail.Found
	st    *tally.FileState
	dec   tally.Decoder
	// cold: st holds only the file's mark (tally.FileMark.Cold); the
	// full state is in the store, read back by warm when needed.
	cold bool
	// busy: a worker holds the entry; nobody else may touch st.
	busy bool
	// failed is the version of the file (tail.File) a read failed on: it
	// is not tried, nor reported, again until the file changes.
	failed tail.File
	// markers are the progress markers read from the file and not
	// committed yet: they are committed with its state.
	markers []readMarker
}

// New takes the store's change mark: every record another process
// commits from now on is published by Run, so a server that shows a
// snapshot of the store before Run starts still sends what changed after
// it. It reads nothing else: the saved marks of the files are loaded by
// the first round (a scan), so building an Indexer costs a query, and a
// command that shows the store first does not wait for a long history.
func New(ctx context.Context, o Options) (*Indexer, error) {
	ix := newIndexer(o)
	mark, err := ix.o.Store.ChangeMark(ctx)
	if err != nil {
		return nil, err
	}
	ix.mark = mark
	return ix, nil
}

// load reads the marks of the files saved in the store, once, before the
// first round; it runs under the round lock.
func (ix *Indexer) load(ctx context.Context) error {
	if ix.loaded {
		return nil
	}
	marks, err := ix.o.Store.FileMarks(ctx)
	if err != nil {
		return err
	}
	for _, m := range marks {
		// One session of a database is re-read when the database changes:
		// the database is the file an adapter must claim.
		file := m.Path
		if m.Database != "" {
			file = m.Database
		}
		f, ok := tail.Claim(ix.o.Adapters, file)
		if !ok || (m.Database != "") != (f.Info.Layout == tally.LayoutDatabase) {
			continue // no adapter claims it now (another home)
		}
		st := m.Cold()
		if ix.files[st.Path] == nil {
			ix.files[st.Path] = &entry{found: f, st: st, cold: true}
			ix.link(st)
		}
	}
	ix.loaded = true
	return nil
}

// newIndexer is an Indexer with o's defaults that knows no file yet.
func newIndexer(o Options) *Indexer {
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Rescan <= 0 {
		o.Rescan = 5 * time.Second
	}
	if o.CommitEvery <= 0 {
		o.CommitEvery = 2 * time.Second
	}
	if o.PollStore <= 0 {
		o.PollStore = 250 * time.Millisecond
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Detect == (detect.Rules{}) {
		o.Detect = detect.DefaultRules()
	}
	ix := &Indexer{o: o, files: make(map[string]*entry), bySess: make(map[string]map[string]bool), broker: broker.New[Change](), ready: make(chan struct{}), unsaved: make(map[string]*entry),
		lists: newLists(), shown: make(map[string]shown), due: make(map[string]time.Time), names: tail.NewNames()}
	ix.readers.New = func() any { return tail.NewReader() }
	return ix
}

// newEntry starts following a file an adapter claimed.
func (ix *Indexer) newEntry(f tail.Found) *entry {
	dir := f.Info.Layout == tally.LayoutDirectory
	e := &entry{found: f, st: &tally.FileState{Path: f.Info.Path, Agent: f.Adapter.Agent(), Session: f.Info.Session, Current: dir}}
	ix.files[f.Info.Path] = e
	ix.link(e.st)
	return e
}

func (ix *Indexer) link(st *tally.FileState) {
	if st.Session == "" {
		return // a database: its parts carry the sessions
	}
	m := ix.bySess[st.Session]
	if m == nil {
		m = make(map[string]bool)
		ix.bySess[st.Session] = m
	}
	m[st.Path] = true
}

// Ready is closed when Run has scanned once and watches every home: from
// then on, every change to a log is seen.
func (ix *Indexer) Ready() <-chan struct{} { return ix.ready }

func (ix *Indexer) diag(d tally.Diagnostic) {
	if ix.o.OnDiagnostic != nil {
		ix.o.OnDiagnostic(d)
	}
}
