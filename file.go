package tally

import (
	"encoding/json"
	"sort"
	"time"
)

// FileState is the fold of one log file: where reading stopped, what the
// adapter's decoder needs to go on from there, and the lists and session
// facts the file has produced. It is the unit the store saves: a file's
// offset and the state folded up to that offset are written together, so a
// restart resumes exactly where the saved state ends.
type FileState struct {
	Path    string `json:"path"`
	Agent   Agent  `json:"agent"`
	Session string `json:"session"`
	// Database is set for one session's part of a database (a
	// LayoutDatabase file): the database's path, which is the file on
	// disk; Path is then PartPath(Database, Session). It is "" for a file
	// of its own.
	Database string `json:"database,omitempty"`
	// Offset is the byte just after the last complete line folded.
	Offset int64 `json:"offset"`
	// Identity and Head tell a file replaced or rewritten from the one the
	// offset belongs to (the tail package sets and compares them).
	Identity string `json:"identity,omitempty"`
	Head     uint64 `json:"head,omitempty,string"` // a string: JSON numbers lose 64-bit precision

	Project   string    `json:"project,omitempty"`
	Title     string    `json:"title,omitempty"`
	TitleWeak bool      `json:"titleWeak,omitempty"`
	StartedAt time.Time `json:"startedAt"`
	LastAt    time.Time `json:"lastAt"`
	Signal    Signal    `json:"signal"`
	// Tentative: Signal is a turn end the agent did not say was over (see
	// Meta.TurnOver).
	Tentative bool `json:"tentative,omitempty"`
	// ListTools and ListToolsHint: see Meta.
	ListTools     ListTools `json:"listTools,omitempty"`
	ListToolsHint string    `json:"listToolsHint,omitempty"`

	Lists   map[string]*List `json:"lists,omitempty"`
	Markers []Marker         `json:"markers,omitempty"`
	// Decoder is the adapter decoder's own state (Decoder.State).
	Decoder []byte `json:"decoder,omitempty"`
	Stats   Stats  `json:"stats"`
	// Turns counts the lines recording a model call the fold has read
	// (Turner), from the file's start or from when it was first counted.
	Turns int64 `json:"turns,omitempty"`

	// Current marks the state of files that hold a list as it is now
	// rather than its history (a LayoutDirectory of task files). See
	// Merge for how it joins the logs of its session.
	Current bool `json:"current,omitempty"`
	// Writers, on a Current state, are the other sessions whose logs show
	// them using the list (sessions sharing one task list), in the order
	// they were found.
	Writers []string `json:"writers,omitempty"`
	// TasksIn, on a session's main log, names the Current list of another
	// id that the session's tasks are kept in.
	TasksIn string `json:"tasksIn,omitempty"`

	// Now is the reader's clock: an event timed past it (and
	// MaxClockSkew) is taken as timed now. nil is time.Now.
	Now func() time.Time `json:"-"`
	// repairs are what Apply repaired since TakeRepairs last ran.
	repairs []string
	// Detect is what detection keeps of the file, folded up to Offset and
	// saved with it (package detect's State; the indexer reads and writes
	// it, the fold only carries it). Reset forgets it.
	Detect json.RawMessage `json:"detect,omitempty"`

	// Observer, when set, sees every event Apply folds, in order, as
	// repaired. It is not saved.
	Observer Observer `json:"-"`
}

// Observer follows a file's fold event by event: the indexer feeds
// detection through it. Observe is called after the event is applied,
// with f as it is then and whether anything a reader sees changed; Reset
// when the file is folded again from the start.
type Observer interface {
	Observe(f *FileState, ev Event, changed bool)
	Reset()
}

// MaxMarkers bounds the progress markers a file keeps: the newest win.
const MaxMarkers = 32

// Apply folds one event into the file's state and reports whether anything
// a reader sees changed. An event with text that is not UTF-8, or timed in
// the future, is repaired rather than dropped (see TakeRepairs).
func (f *FileState) Apply(ev Event) bool {
	f.repair(&ev)
	changed := f.apply(ev)
	if f.Observer != nil {
		f.Observer.Observe(f, ev, changed)
	}
	return changed
}

func (f *FileState) apply(ev Event) bool {
	changed := false
	if !ev.At.IsZero() {
		if f.StartedAt.IsZero() || ev.At.Before(f.StartedAt) {
			f.StartedAt = ev.At
			changed = true
		}
		if ev.At.After(f.LastAt) {
			f.LastAt = ev.At
			changed = true
		}
	}
	switch ev.Kind {
	case EventMeta:
		if ev.Meta.Name != "" && ev.List != "" {
			if l := f.list(ev.List); l.Name != ev.Meta.Name {
				l.Name, changed = ev.Meta.Name, true
			}
		}
		return f.applyMeta(ev.Meta) || changed
	case EventMarker:
		f.Markers = append(f.Markers, ev.Marker)
		if len(f.Markers) > MaxMarkers {
			f.Markers = append(f.Markers[:0], f.Markers[len(f.Markers)-MaxMarkers:]...)
		}
		return true
	case EventToolCall:
		return changed
	case EventCallFailed, EventCallSucceeded:
		// A call's result: it changes a list the call changed, if any.
		if l := f.Lists[ev.List]; l != nil {
			return l.Apply(ev) || changed
		}
		return changed
	case EventSnapshot, EventTaskCreate, EventTaskAssign, EventTaskUpdate, EventTaskResync, EventMerge:
	}
	if ev.List != RuntimeList && ev.List != ProposalList && f.ListTools != ListToolsOffered {
		// A list was kept: a list tool was there, whatever else the log
		// said. A proposed plan is text, not a list tool's.
		f.ListTools, f.ListToolsHint, changed = ListToolsOffered, "", true
	}
	l := f.list(ev.List)
	orphans, blank := l.Orphans, l.Blank
	ok := l.Apply(ev)
	if ev.List == RuntimeList && l.trimRuntime() {
		ok = true
	}
	f.Stats.Orphans += int64(l.Orphans - orphans)
	f.Stats.Blank += int64(l.Blank - blank)
	return ok || changed
}

// list is the file's list key, made if it is new.
func (f *FileState) list(key string) *List {
	if f.Lists == nil {
		f.Lists = make(map[string]*List)
	}
	l := f.Lists[key]
	if l == nil {
		l = &List{}
		f.Lists[key] = l
	}
	return l
}

func (f *FileState) applyMeta(m Meta) bool {
	changed := false
	if m.SessionID != "" && f.Session == "" {
		f.Session, changed = m.SessionID, true
	}
	if m.Project != "" && m.Project != f.Project {
		f.Project, changed = m.Project, true
	}
	if m.Title != "" && (f.Title == "" || f.TitleWeak || !m.TitleWeak) && m.Title != f.Title {
		f.Title, f.TitleWeak, changed = m.Title, m.TitleWeak, true
	}
	if m.Signal != SignalNone {
		tentative := m.Signal.TurnEnd() && !m.TurnOver
		if m.Signal != f.Signal || tentative != f.Tentative {
			f.Signal, f.Tentative, changed = m.Signal, tentative, true
		}
	}
	if t := mergeTools(f.ListTools, m.ListTools); t != f.ListTools {
		f.ListTools, changed = t, true
		if t == ListToolsNone {
			f.ListToolsHint = m.ListToolsHint
		} else {
			f.ListToolsHint = ""
		}
	}
	return changed
}

// Reset forgets everything folded from the file, keeping its name: the
// file shrank or was replaced and will be folded again from offset 0.
func (f *FileState) Reset() {
	resets := f.Stats.Resets + 1
	*f = FileState{Path: f.Path, Agent: f.Agent, Session: f.Session, Database: f.Database, Now: f.Now, Observer: f.Observer}
	f.Stats.Resets = resets
	if f.Observer != nil {
		f.Observer.Reset()
	}
}

// Merge builds the Record of one session from the states of its files: its
// logs (the main log and any sub-agent logs) and the directory holding its
// task list, when it has one.
//
//   - Facts (project, title, times, activity) come from the logs, those of
//     the main log (the one holding list "") first. A record with no log
//     is a list of its own (Record.Shared: a list several sessions share,
//     or one whose session's log is gone), and takes them from its files.
//   - Tasks come from the Current files when there are any, and those
//     folded from the logs are left out: the files are what the agent
//     itself reads back and what every session sharing the list sees,
//     while a log holds only its own session's calls, and not even all of
//     those (a sub-agent writes the same list from its own log). Todos
//     (snapshot items) come from the logs either way.
//   - A session whose tasks are kept in another id's list (TasksIn) shows
//     none of them itself: they are shown once, in that list.
func Merge(files []*FileState) Record {
	var logs, current []*FileState
	for _, f := range files {
		if f.Current {
			current = append(current, f)
		} else {
			logs = append(logs, f)
		}
	}
	sort.SliceStable(logs, func(i, j int) bool {
		_, mi := logs[i].Lists[""]
		_, mj := logs[j].Lists[""]
		if mi != mj {
			return mi
		}
		return logs[i].Path < logs[j].Path
	})
	sort.SliceStable(current, func(i, j int) bool { return current[i].Path < current[j].Path })
	var r Record
	facts := logs
	if len(logs) == 0 {
		facts = current
		r.Shared = len(current) > 0
	}
	for _, f := range facts {
		r.mergeFacts(f)
	}
	for _, f := range logs {
		if r.TasksIn == "" && f.TasksIn != "" && len(current) == 0 {
			r.TasksIn = f.TasksIn
		}
	}
	dropTasks := len(current) > 0 || r.TasksIn != ""
	for _, f := range logs {
		r.mergeLists(f, dropTasks)
	}
	for _, f := range current {
		if r.ID == "" {
			r.ID, r.Agent = f.Session, f.Agent
		}
		r.mergeLists(f, false)
		for _, w := range f.Writers {
			if w != r.ID {
				r.Writers = addUnique(r.Writers, w)
			}
		}
	}
	for _, f := range files {
		r.Stats.Add(f.Stats)
		r.Stats.Files++
	}
	return r
}

func (r *Record) mergeFacts(f *FileState) {
	if r.ID == "" {
		r.ID, r.Agent = f.Session, f.Agent
	}
	if r.Project == "" {
		r.Project = f.Project
	}
	if f.Title != "" && (r.Title == "" || (r.TitleWeak && !f.TitleWeak)) {
		r.Title, r.TitleWeak = f.Title, f.TitleWeak
	}
	if !f.StartedAt.IsZero() && (r.StartedAt.IsZero() || f.StartedAt.Before(r.StartedAt)) {
		r.StartedAt = f.StartedAt
	}
	if f.LastAt.After(r.LastActivity) || (f.LastAt.Equal(r.LastActivity) && r.Signal == SignalNone) {
		r.LastActivity, r.Signal, r.Tentative = f.LastAt, f.Signal, f.Tentative
	}
	if t := mergeTools(r.ListTools, f.ListTools); t != r.ListTools {
		r.ListTools, r.ListToolsHint = t, f.ListToolsHint
		if t != ListToolsNone {
			r.ListToolsHint = ""
		}
	}
	r.Markers = append(r.Markers, f.Markers...)
}

// mergeLists adds f's lists to the record, without its tasks when
// dropTasks is set.
func (r *Record) mergeLists(f *FileState, dropTasks bool) {
	for k, l := range f.Lists {
		if l.Name != "" && k != "" {
			if r.Names == nil {
				r.Names = make(map[string]string)
			}
			r.Names[k] = l.Name
		}
		if k == RuntimeList {
			r.Runtime.add(l.Earlier)
		}
		items := l.Items()
		if dropTasks && k != RuntimeList {
			kept := items[:0]
			for _, it := range items {
				if it.Source != SourceTask {
					kept = append(kept, it)
				}
			}
			items = kept
		}
		if len(items) == 0 && k != "" {
			continue
		}
		if r.Lists == nil {
			r.Lists = make(map[string][]Item)
		}
		r.Lists[k] = append(r.Lists[k], items...)
	}
}

// FileMark is what the indexer keeps in memory of a file whose session is
// over: where it stopped and what the file was, so that a change is noticed,
// without the lists. Memory then grows with the sessions still going, not
// with history; the full state comes back from the store when the file
// changes.
type FileMark struct {
	Path     string
	Session  string
	Database string
	Agent    Agent
	Offset   int64
	Identity string
	Head     uint64
	LastAt   time.Time
}

// Mark is f without its lists.
func (f *FileState) Mark() FileMark {
	return FileMark{Path: f.Path, Session: f.Session, Database: f.Database, Agent: f.Agent, Offset: f.Offset, Identity: f.Identity, Head: f.Head, LastAt: f.LastAt}
}

// Cold is a state holding only the mark: it answers whether the file
// changed, and must be replaced by the saved state before anything is
// folded into it.
func (m FileMark) Cold() *FileState {
	return &FileState{Path: m.Path, Session: m.Session, Database: m.Database, Agent: m.Agent, Offset: m.Offset, Identity: m.Identity, Head: m.Head, LastAt: m.LastAt}
}
