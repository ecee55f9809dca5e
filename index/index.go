package index

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/broker"
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
	// 250 ms.
	PollStore    time.Duration
	Now          func() time.Time
	OnProgress   func(Progress)
	OnDiagnostic func(tally.Diagnostic)
}

// Progress reports a scan under way.
type Progress struct {
	Files, FilesDone int
	Bytes, BytesDone int64
}

// Summary is what a scan did.
type Summary struct {
	Sessions  int           `json:"sessions"`
	Files     int           `json:"files"`
	Lines     int64         `json:"lines"`
	Bytes     int64         `json:"bytes"`
	Parsed    int64         `json:"parsed"`
	Malformed int64         `json:"malformed"`
	Elapsed   time.Duration `json:"elapsed"`
}

// ChangeKind says what happened to a session.
type ChangeKind uint8

const (
	SessionUpdated ChangeKind = iota + 1
	SessionRemoved
)

func (k ChangeKind) String() string {
	switch k {
	case SessionUpdated:
		return "session_updated"
	case SessionRemoved:
		return "session_removed"
	}
	return "unknown"
}

// Change is a committed change to one session.
type Change struct {
	Kind   ChangeKind
	ID     string
	Record tally.Record
}

// commitFiles bounds how many folded files a scan holds before committing:
// their states are in memory until then, and are encoded all at once.
const commitFiles = 128

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
	ready       chan struct{}
	readyOnce   sync.Once
}

type entry struct {
	found tail.Found
	st    *tally.FileState
	dec   tally.Decoder
	// cold: st holds only the file's mark (tally.FileMark.Cold); the
	// full state is in the store, read back by warm when needed.
	cold bool
	// busy: a worker holds the entry; nobody else may touch st.
	busy bool
}

// warm replaces a cold entry's mark with the saved state. A state the
// store does not have (or has damaged) starts over: the file is read again
// from offset 0.
func (ix *Indexer) warm(ctx context.Context, e *entry) error {
	if !e.cold {
		return nil
	}
	st, err := ix.o.Store.File(ctx, e.st.Path)
	switch {
	case err == nil:
	case tally.ErrorCode(err) == tally.CodeNotFound:
		st = &tally.FileState{Path: e.st.Path, Agent: e.st.Agent, Session: e.st.Session}
	default:
		return err
	}
	e.st, e.cold = st, false
	return nil
}

// cool drops an entry's lists from memory once its session is over: memory
// then follows the sessions still going, not the length of history.
func (ix *Indexer) cool(e *entry) {
	if !e.cold && ix.o.Now().Sub(e.st.LastAt) > tally.EndedAfter {
		e.st, e.cold, e.dec = e.st.Mark().Cold(), true, nil
	}
}

// New loads the saved file states from the store.
func New(ctx context.Context, o Options) (*Indexer, error) {
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
	ix := &Indexer{o: o, files: make(map[string]*entry), bySess: make(map[string]map[string]bool), broker: broker.New[Change](), ready: make(chan struct{}), unsaved: make(map[string]*entry)}
	marks, err := o.Store.FileMarks(ctx)
	if err != nil {
		return nil, err
	}
	for _, m := range marks {
		// One session of a database is re-read when the database changes:
		// the database is the file an adapter must claim.
		file := m.Path
		if m.Database != "" {
			file = m.Database
		}
		f, ok := tail.Claim(o.Adapters, file)
		if !ok || (m.Database != "") != (f.Info.Layout == tally.LayoutDatabase) {
			continue // no adapter claims it now (another home)
		}
		st := m.Cold()
		ix.files[st.Path] = &entry{found: f, st: st, cold: true}
		ix.link(st)
	}
	return ix, nil
}

// newEntry starts following a file an adapter claimed.
func (ix *Indexer) newEntry(f tail.Found) *entry {
	e := &entry{found: f, st: &tally.FileState{Path: f.Info.Path, Agent: f.Adapter.Agent(), Session: f.Info.Session}}
	ix.files[f.Info.Path] = e
	ix.link(e.st)
	return e
}

func (ix *Indexer) link(st *tally.FileState) {
	if st.Session == "" {
		return // a multi-session file: its parts carry the sessions
	}
	m := ix.bySess[st.Session]
	if m == nil {
		m = make(map[string]bool)
		ix.bySess[st.Session] = m
	}
	m[st.Path] = true
}

// Subscribe receives every committed change; buf bounds the backlog, past
// which changes are dropped for this subscriber and counted.
func (ix *Indexer) Subscribe(buf int) (<-chan Change, func()) {
	s := ix.broker.Subscribe(buf)
	return s.C, s.Close
}

// Broker exposes the change stream with its drop counters.
func (ix *Indexer) Broker() *broker.Broker[Change] { return ix.broker }

// Scan walks every agent home once and folds whatever changed since the
// saved offsets.
func (ix *Indexer) Scan(ctx context.Context) (Summary, error) {
	ix.round.Lock()
	defer ix.round.Unlock()
	start := time.Now()
	found, walked, werr := tail.Walk(ix.o.Adapters, ix.addWatch)
	var work []job
	seen := make(map[string]bool, len(found))
	for _, f := range found {
		path := f.Info.Path
		if seen[path] {
			continue // a database and its -wal name the same file
		}
		seen[path] = true
		e := ix.files[path]
		if e == nil {
			e = ix.newEntry(f)
		}
		e.found = f
		if j, ok := ix.check(e); ok {
			work = append(work, j)
		}
	}
	var gone []string
	for path, e := range ix.files {
		base := path
		if e.st.Database != "" {
			base = e.st.Database
		}
		if !seen[base] && walked[e.found.Root] {
			gone = append(gone, path)
		}
	}
	sum, err := ix.process(ctx, work, gone)
	sum.Elapsed = time.Since(start)
	return sum, errors.Join(werr, err)
}

type job struct {
	e    *entry
	file tail.File
}

func (ix *Indexer) check(e *entry) (job, bool) {
	whole := e.found.Info.Layout.Rewritten()
	f, err := tail.Stat(e.st.Path, whole)
	if err != nil {
		return job{}, false
	}
	return job{e: e, file: f}, tail.Changed(e.st, f, whole)
}

type result struct {
	e       *entry
	changed bool
	diags   []tally.Diagnostic
	err     error
	before  tally.Stats
	// parts are the sessions a multi-session file holds now.
	parts map[string]*tally.FileState
}

// process folds the jobs in parallel and commits the results, together
// with the removal of gone files, in as few transactions as CommitEvery
// allows.
func (ix *Indexer) process(ctx context.Context, work []job, gone []string) (Summary, error) {
	var sum Summary
	prog := Progress{Files: len(work)}
	// Big files first: the scan ends when the biggest file ends.
	sort.Slice(work, func(i, j int) bool {
		return work[i].file.Size-work[i].e.st.Offset > work[j].file.Size-work[j].e.st.Offset
	})
	for _, j := range work {
		prog.Bytes += max(j.file.Size-j.e.st.Offset, 0)
		j.e.busy = true
	}
	jobs := make(chan job)
	// Buffered so a commit in the coordinator never stalls the workers.
	results := make(chan result, len(work))
	var wg sync.WaitGroup
	for range min(ix.o.Workers, max(len(work), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := tail.NewReader()
			for j := range jobs {
				results <- ix.sync(ctx, r, j)
			}
		}()
	}
	go func() {
		defer close(jobs)
		for _, j := range work {
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var errs []error
	pending := ix.unsaved
	ix.unsaved = make(map[string]*entry)
	gone = append(gone, ix.unsavedGone...)
	ix.unsavedGone = nil
	lastCommit := time.Now()
	for res := range results {
		res.e.busy = false
		prog.FilesDone++
		prog.BytesDone += res.e.st.Stats.Bytes - res.before.Bytes
		sum.Files++
		sum.Lines += res.e.st.Stats.Lines - res.before.Lines
		sum.Bytes += res.e.st.Stats.Bytes - res.before.Bytes
		sum.Parsed += res.e.st.Stats.Parsed - res.before.Parsed
		sum.Malformed += res.e.st.Stats.Malformed - res.before.Malformed
		if res.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", res.e.st.Path, res.err))
		}
		if ix.o.OnDiagnostic != nil {
			for _, d := range res.diags {
				ix.o.OnDiagnostic(d)
			}
		}
		if res.changed {
			pending[res.e.st.Path] = res.e
		}
		if res.parts != nil {
			ix.replaceParts(res.e, res.parts, pending, &gone)
		}
		if ix.o.OnProgress != nil {
			ix.o.OnProgress(prog)
		}
		if len(pending) > 0 && (time.Since(lastCommit) > ix.o.CommitEvery || len(pending) >= commitFiles) {
			ready, later := ix.settled(pending)
			if err := ix.commit(ctx, ready, nil); err != nil {
				errs = append(errs, err)
			}
			pending = later
			lastCommit = time.Now()
		}
	}
	for _, j := range work {
		j.e.busy = false // those a cancelled scan never handed out
	}
	for path, e := range ix.unsaved { // a mid-scan commit that failed
		pending[path] = e
	}
	ix.unsaved = make(map[string]*entry)
	if len(pending) > 0 || len(gone) > 0 {
		if err := ix.commit(ctx, pending, gone); err != nil {
			errs = append(errs, err)
		}
	}
	sum.Sessions = len(ix.bySess)
	if err := ctx.Err(); err != nil {
		errs = append(errs, err)
	}
	return sum, errors.Join(errs...)
}

// settled splits pending files into those whose sessions can be committed
// now and those of sessions a worker still holds a file of: a record is
// made of all its files, and a held one is not to be read.
func (ix *Indexer) settled(pending map[string]*entry) (ready, later map[string]*entry) {
	ready, later = make(map[string]*entry), make(map[string]*entry)
	for path, e := range pending {
		held := false
		for p := range ix.bySess[e.st.Session] {
			if ix.files[p].busy {
				held = true
				break
			}
		}
		if held {
			later[path] = e
		} else {
			ready[path] = e
		}
	}
	return ready, later
}

func (ix *Indexer) sync(ctx context.Context, r *tail.Reader, j job) result {
	e := j.e
	if err := ix.warm(ctx, e); err != nil {
		return result{e: e, err: err}
	}
	res := result{e: e, before: e.st.Stats}
	info := e.found.Info
	if info.Layout == tally.LayoutDatabase {
		db, ok := e.found.Adapter.(tally.DatabaseReader)
		if !ok {
			res.err = tally.Errorf(tally.CodeInternal, "index", "the %s adapter matched a database it cannot read", e.found.Adapter.Agent())
			return res
		}
		return ix.readDatabase(ctx, j, db, res)
	}
	lr, ok := e.found.Adapter.(tally.LineReader)
	if !ok {
		res.err = tally.Errorf(tally.CodeInternal, "index", "the %s adapter matched a %s file it cannot read", e.found.Adapter.Agent(), info.Layout)
		return res
	}
	newDec := func() (tally.Decoder, error) { return lr.NewDecoder(info, e.st.Decoder) }
	e.dec, res.changed, res.diags, res.err = r.Sync(e.st, j.file, info.Layout.Rewritten(), e.dec, newDec)
	// The offset moved even when no list did: save it either way.
	res.changed = res.changed || e.st.Stats.Bytes != res.before.Bytes || e.st.Stats.Resets != res.before.Resets
	// A decoder holds parse buffers as big as the longest line it met:
	// only a session still going keeps one for its next append.
	if ix.o.Now().Sub(e.st.LastAt) > tally.EndedAfter {
		e.dec = nil
	}
	return res
}

// commit writes the changed files, their sessions' records and removals in
// one transaction, then publishes.
func (ix *Indexer) commit(ctx context.Context, changed map[string]*entry, gone []string) error {
	err := ix.tryCommit(ctx, changed, gone)
	if err != nil {
		// The folded state is ahead of the store: keep it to commit with
		// the next round, or its offsets would say it was saved.
		for path, e := range changed {
			ix.unsaved[path] = e
		}
		ix.unsavedGone = append(ix.unsavedGone, gone...)
	}
	return err
}

func (ix *Indexer) tryCommit(ctx context.Context, changed map[string]*entry, gone []string) error {
	var b tally.Batch
	touched := make(map[string]bool)
	for _, e := range changed {
		b.Files = append(b.Files, e.st)
		if e.st.Session != "" { // a multi-session file: its parts carry the sessions
			touched[e.st.Session] = true
		}
	}
	removed := make(map[string]bool, len(gone))
	for _, path := range gone {
		e := ix.files[path]
		if e == nil || removed[path] {
			continue
		}
		removed[path] = true
		b.RemovedFiles = append(b.RemovedFiles, path)
		if e.st.Session != "" {
			touched[e.st.Session] = true
		}
	}
	var changes []Change
	for id := range touched {
		var states []*tally.FileState
		for p := range ix.bySess[id] {
			if removed[p] {
				continue
			}
			if err := ix.warm(ctx, ix.files[p]); err != nil {
				return err
			}
			states = append(states, ix.files[p].st)
		}
		if len(states) == 0 {
			b.RemovedSessions = append(b.RemovedSessions, id)
			changes = append(changes, Change{Kind: SessionRemoved, ID: id})
			continue
		}
		rec := tally.Merge(states)
		b.Sessions = append(b.Sessions, rec)
		changes = append(changes, Change{Kind: SessionUpdated, ID: id, Record: rec})
	}
	if err := ix.o.Store.Commit(ctx, b); err != nil {
		return err
	}
	// Only now, with the store agreeing, does memory forget removed files.
	for path := range removed {
		e := ix.files[path]
		delete(ix.files, path)
		if m := ix.bySess[e.st.Session]; m != nil {
			delete(m, path)
			if len(m) == 0 {
				delete(ix.bySess, e.st.Session)
			}
		}
	}
	for _, c := range changes {
		ix.broker.Publish(c)
	}
	for id := range touched {
		for p := range ix.bySess[id] {
			ix.cool(ix.files[p])
		}
	}
	for _, e := range changed {
		if ix.files[e.st.Path] == e {
			ix.cool(e) // a multi-session file's own state
		}
	}
	return nil
}

// Run scans, then follows the agents' homes live until ctx ends: changes
// named by file-system notifications are folded at once, and a catch-up
// scan every Rescan finds whatever a notification missed.
func (ix *Indexer) Run(ctx context.Context) error {
	w, err := tail.NewWatcher()
	if err != nil {
		return err
	}
	w.Skip = func(dir string) bool { return tail.Skipped(ix.o.Adapters, dir) }
	wctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); w.Run(wctx) }()
	ix.round.Lock()
	ix.w = w
	ix.round.Unlock()
	defer func() {
		cancel()
		wg.Wait()
		ix.round.Lock()
		ix.w = nil
		ix.round.Unlock()
	}()

	scan := func() error {
		_, err := ix.Scan(ctx)
		return err
	}
	if err := scan(); err != nil && ctx.Err() == nil {
		ix.diag(tally.Diagnostic{Msg: "scan: " + err.Error()})
	}
	mark, err := ix.o.Store.ChangeMark(ctx)
	if err != nil && ctx.Err() == nil {
		ix.diag(tally.Diagnostic{Msg: "store: " + err.Error()})
	}
	ix.readyOnce.Do(func() { close(ix.ready) })
	tick := time.NewTicker(ix.o.Rescan)
	defer tick.Stop()
	poll := time.NewTicker(ix.o.PollStore)
	defer poll.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-poll.C:
			mark = ix.publishExternal(ctx, mark)
		case <-tick.C:
			if err := scan(); err != nil && ctx.Err() == nil {
				ix.diag(tally.Diagnostic{Msg: "scan: " + err.Error()})
			}
		case err := <-w.Errors:
			ix.diag(tally.Diagnostic{Msg: "watch: " + err.Error() + " (the periodic scan covers it)"})
		case p := <-w.Changed:
			paths := map[string]bool{p: true}
			// Coalesce a burst (several lines appended at once) into one round.
			for drained := false; !drained; {
				select {
				case p := <-w.Changed:
					paths[p] = true
				default:
					drained = true
				}
			}
			if err := ix.syncPaths(ctx, paths); err != nil && ctx.Err() == nil {
				ix.diag(tally.Diagnostic{Msg: err.Error()})
			}
		}
	}
}

func (ix *Indexer) diag(d tally.Diagnostic) {
	if ix.o.OnDiagnostic != nil {
		ix.o.OnDiagnostic(d)
	}
}

// addWatch watches a directory Scan walks through; it runs under the
// round lock.
func (ix *Indexer) addWatch(dir string) {
	if ix.w == nil {
		return
	}
	if err := ix.w.Add(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		ix.diag(tally.Diagnostic{Path: dir, Msg: "watch: " + err.Error()})
	}
}

// Ready is closed when Run has scanned once and watches every home: from
// then on, every change to a log is seen.
func (ix *Indexer) Ready() <-chan struct{} { return ix.ready }

// syncPaths folds the files notifications named. A path no adapter claims
// (a new directory, a sidecar file) is ignored here: new directories are
// watched by the Watcher, and their files arrive as their own events.
func (ix *Indexer) syncPaths(ctx context.Context, paths map[string]bool) error {
	ix.round.Lock()
	defer ix.round.Unlock()
	var work []job
	var gone []string
	queued := make(map[*entry]bool)
	for p := range paths {
		e := ix.files[p]
		if e == nil {
			f, ok := tail.Claim(ix.o.Adapters, p)
			if !ok {
				continue
			}
			// A database's -wal names the database: the entry is its.
			p = f.Info.Path
			if e = ix.files[p]; e == nil {
				if _, err := tail.Stat(p, f.Info.Layout.Rewritten()); err != nil {
					continue
				}
				e = ix.newEntry(f)
			}
		}
		j, ok := ix.check(e)
		if !ok {
			if _, err := tail.Stat(p, false); errors.Is(err, fs.ErrNotExist) {
				gone = append(gone, p)
			}
			continue
		}
		if !queued[e] { // a database and its -wal in one burst: one job
			queued[e] = true
			work = append(work, j)
		}
	}
	if len(work) == 0 && len(gone) == 0 {
		return nil
	}
	_, err := ix.process(ctx, work, gone)
	return err
}

// readDatabase reads a database whole and folds each session it holds
// from scratch.
func (ix *Indexer) readDatabase(ctx context.Context, j job, db tally.DatabaseReader, res result) result {
	e := j.e
	sessions, diags, err := db.ReadDatabase(ctx, e.st.Path)
	if err != nil {
		res.err = err
		return res
	}
	// The file is read whole each time, so its bad rows are those of this
	// read: the count is set, not added to earlier reads', and all of it
	// goes to this scan's summary, as all of diags goes to OnDiagnostic.
	res.diags = diags
	e.st.Stats.Malformed = int64(len(diags))
	res.before.Malformed = 0
	res.parts = make(map[string]*tally.FileState, len(sessions))
	for id, events := range sessions {
		st := &tally.FileState{Path: tally.PartPath(e.st.Path, id), Database: e.st.Path, Agent: e.st.Agent, Session: id, Identity: j.file.Identity}
		for _, ev := range events {
			st.Apply(ev)
		}
		st.Stats.Lines = int64(len(events))
		res.parts[id] = st
	}
	e.st.Identity = j.file.Identity
	e.st.Offset = j.file.Size
	res.changed = true
	return res
}

// replaceParts installs the sessions a multi-session file holds now: new
// and changed ones are committed, vanished ones removed.
func (ix *Indexer) replaceParts(parent *entry, parts map[string]*tally.FileState, pending map[string]*entry, gone *[]string) {
	for path, e := range ix.files {
		if e.st.Database == parent.st.Path && parts[e.st.Session] == nil {
			*gone = append(*gone, path)
		}
	}
	for _, st := range parts {
		old := ix.files[st.Path]
		if old != nil && sameState(old.st, st) {
			continue
		}
		e := &entry{found: parent.found, st: st}
		ix.files[st.Path] = e
		ix.link(st)
		pending[st.Path] = e
	}
}

func sameState(a, b *tally.FileState) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// publishExternal publishes the records other processes committed since
// mark — sessions no log file of this indexer holds — and returns the new
// mark.
func (ix *Indexer) publishExternal(ctx context.Context, mark int64) int64 {
	recs, next, err := ix.o.Store.Changed(ctx, mark)
	if err != nil {
		if ctx.Err() == nil {
			ix.diag(tally.Diagnostic{Msg: "store: " + err.Error()})
		}
		return mark
	}
	ix.round.Lock()
	defer ix.round.Unlock()
	for _, rec := range recs {
		if len(ix.bySess[rec.ID]) == 0 {
			ix.broker.Publish(Change{Kind: SessionUpdated, ID: rec.ID, Record: rec})
		}
	}
	return next
}
