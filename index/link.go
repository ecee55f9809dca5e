package index

import (
	"context"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/tallyhq/tally"
)

// Sessions can keep their tasks in a list that is not their own: Claude
// Code's CLAUDE_CODE_TASK_LIST_ID, or an agent team, points several
// sessions at one task directory, and nothing in their logs names it. The
// list is then a record of its own (its directory's state, with no log of
// its id: Record.Shared), and linkShared joins it to the sessions that use
// it by what both hold. The rule:
//
//   - only a list the agent named for sharing (tally.FileInfo.Shared) is
//     linked: one named after a session is that session's alone, however
//     alike two sessions' tasks are (the same work planned twice gives the
//     same ids and titles);
//   - and only within its project: once a session of one project uses the
//     list, the list is that project's, and a session of another project
//     is never linked to it;
//   - a session with no list directory of its own, whose logs show a task
//     it did not create (the list's own answer to TaskList: tasks others
//     created) with the same id and title as a task of such a list, uses
//     that list (the one with the most such tasks; on a tie, the one it
//     used before, else the first by id);
//   - it is recorded on both sides: the session's main log names the list
//     (FileState.TasksIn), and the list's directory state names the session
//     (FileState.Writers), both saved with the states; Merge then shows the
//     tasks once, in the list;
//   - a session that has a list directory of its own uses it, and any
//     link it had is dropped.
//
// No log names the list, so what the agent read from it is all there is
// to go on, and two lists holding the same tasks (the same ids and titles)
// cannot be told apart: the one with most in common wins.
//
// What is compared is kept small and in memory: the tasks of every list
// read since Tally started, as one 64-bit signature per task (lists are
// read before logs in a scan, so a first scan of old history links too),
// and for a session that uses a list not read yet, its tasks' signatures
// until the list comes (at most maxWaiting sessions). A session's own
// tasks are taken from its logs when a commit records it, which reads
// them anyway.

// maxWaiting bounds the sessions waiting for their list.
const maxWaiting = 4096

// taskSig is what a task is recognised by in two sources: its agent, id
// and title.
func taskSig(agent tally.Agent, id, title string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(agent))
	h.Write([]byte{0})
	h.Write([]byte(id))
	h.Write([]byte{0})
	h.Write([]byte(title))
	return h.Sum64()
}

// lists indexes the lists read so far by their tasks.
type lists struct {
	byTask map[uint64][]*entry
	sigs   map[*entry][]uint64
	// waiting holds the task signatures of sessions whose list is not
	// found yet; fresh is set when a list was indexed since they last
	// looked.
	waiting map[string][]uint64
	fresh   bool
}

func newLists() *lists {
	return &lists{byTask: make(map[uint64][]*entry), sigs: make(map[*entry][]uint64), waiting: make(map[string][]uint64)}
}

// index records the tasks list entry e holds now; its state must be in
// memory.
func (ls *lists) index(e *entry) {
	ls.unindex(e)
	var sigs []uint64
	for _, l := range e.st.Lists {
		for _, t := range l.Tasks {
			if t.ID != "" {
				sigs = append(sigs, taskSig(e.st.Agent, t.ID, t.Title))
			}
		}
	}
	for _, s := range sigs {
		ls.byTask[s] = append(ls.byTask[s], e)
	}
	ls.sigs[e] = sigs
	ls.fresh = true
}

func (ls *lists) unindex(e *entry) {
	for _, s := range ls.sigs[e] {
		rest := slices.DeleteFunc(ls.byTask[s], func(o *entry) bool { return o == e })
		if len(rest) == 0 {
			delete(ls.byTask, s)
		} else {
			ls.byTask[s] = rest
		}
	}
	delete(ls.sigs, e)
}

// linkShared links the sessions of this commit to the lists they use, and
// the sessions waiting for a list to the lists indexed since. States it
// changes are added to changed, and their sessions to touched.
func (ix *Indexer) linkShared(ctx context.Context, changed map[string]*entry, touched, removed map[string]bool) {
	ls := ix.lists
	ix.unlinkRemoved(ctx, changed, touched, removed)
	cands := make(map[string]bool, len(touched))
	for id := range touched {
		cands[id] = true
	}
	if ls.fresh {
		for id := range ls.waiting {
			cands[id] = true
		}
		ls.fresh = false
	}
	for _, id := range ix.oldestFirst(cands) {
		if ix.held(id) {
			continue // looked at again when its files are handed back
		}
		if touched[id] && ix.warmSession(ctx, id, removed) != nil {
			continue // the commit reads them all the same, and fails
		}
		main, own := ix.mainLog(id, removed)
		if main == nil {
			delete(ls.waiting, id)
			continue
		}
		if own || !ix.mayUse(ctx, main, main.st.TasksIn, removed) {
			ix.unlink(ctx, main, changed, touched, removed)
		}
		if own {
			delete(ls.waiting, id)
			continue
		}
		sigs := ix.taskSigs(id, removed)
		if sigs == nil {
			sigs = ls.waiting[id]
		}
		if len(sigs) == 0 {
			continue
		}
		best := ls.best(id, main.st.TasksIn, main.st.Project, sigs, removed)
		if best == nil || ix.held(best.st.Session) {
			if _, ok := ls.waiting[id]; ok || len(ls.waiting) < maxWaiting {
				ls.waiting[id] = sigs
			}
			continue
		}
		delete(ls.waiting, id)
		if ix.warm(ctx, main) != nil || ix.warm(ctx, best) != nil {
			continue
		}
		if main.st.TasksIn != best.st.Session {
			main.st.TasksIn = best.st.Session
			changed[main.st.Path] = main
			touched[id] = true
		}
		if !slices.Contains(best.st.Writers, id) {
			best.st.Writers = append(best.st.Writers, id)
			if best.st.Project == "" {
				best.st.Project = main.st.Project
			}
			changed[best.st.Path] = best
			touched[best.st.Session] = true
		}
	}
}

// unlinkRemoved drops the links to the lists this commit removes: their
// writers show their own tasks again.
func (ix *Indexer) unlinkRemoved(ctx context.Context, changed map[string]*entry, touched, removed map[string]bool) {
	for p := range removed {
		e := ix.files[p]
		if e == nil || e.found.Info.Layout != tally.LayoutDirectory || ix.warm(ctx, e) != nil {
			continue
		}
		for _, w := range e.st.Writers {
			main, _ := ix.mainLog(w, removed)
			if main == nil || ix.held(w) || ix.warm(ctx, main) != nil || main.st.TasksIn != e.st.Session {
				continue
			}
			main.st.TasksIn = ""
			changed[main.st.Path] = main
			touched[w] = true
		}
	}
}

// warmSession brings every file state of session id into memory, as the
// commit that records the session does anyway.
func (ix *Indexer) warmSession(ctx context.Context, id string, removed map[string]bool) error {
	for p := range ix.bySess[id] {
		if !removed[p] {
			if err := ix.warm(ctx, ix.files[p]); err != nil {
				return err
			}
		}
	}
	return nil
}

// mainLog is session id's main log (the one of list ""), and whether the
// session has a list directory of its own.
func (ix *Indexer) mainLog(id string, removed map[string]bool) (main *entry, own bool) {
	for p := range ix.bySess[id] {
		if removed[p] {
			continue
		}
		e := ix.files[p]
		switch {
		case e.found.Info.Layout == tally.LayoutDirectory:
			own = true
		case e.found.Info.List == "" && (main == nil || p < main.st.Path):
			main = e
		}
	}
	return main, own
}

// taskSigs are the signatures of the tasks session id's logs in memory
// know from the list itself — its answer to TaskList, with their ids —
// rather than from the session's own TaskCreate calls; nil when none of
// its logs is in memory. What a session created itself says nothing of
// which list it used: the same work planned twice has the same ids and
// titles.
func (ix *Indexer) taskSigs(id string, removed map[string]bool) []uint64 {
	var sigs []uint64
	inMemory := false
	for p := range ix.bySess[id] {
		e := ix.files[p]
		if removed[p] || e.cold || e.st.Current {
			continue
		}
		inMemory = true
		for _, l := range e.st.Lists {
			for _, t := range l.Tasks {
				if t.ID != "" && t.ToolUseID == "" {
					sigs = append(sigs, taskSig(e.st.Agent, t.ID, t.Title))
				}
			}
		}
	}
	if !inMemory {
		return nil
	}
	if sigs == nil {
		sigs = []uint64{}
	}
	return sigs
}

// best is the list of another id holding the most of sigs, nil if none
// holds any: on a tie, the list named prev, else the first by id. Only a
// list shared within project is looked at (linkable).
func (ls *lists) best(id, prev, project string, sigs []uint64, removed map[string]bool) *entry {
	counts := make(map[*entry]int)
	for _, s := range sigs {
		for _, e := range ls.byTask[s] {
			if e.st.Session != id && !e.busy && !removed[e.st.Path] && linkable(e, project) {
				counts[e]++
			}
		}
	}
	var best *entry
	for e, n := range counts {
		switch {
		case best == nil, n > counts[best]:
		case n < counts[best], best.st.Session == prev:
			continue
		case e.st.Session != prev && e.st.Session > best.st.Session:
			continue
		}
		best = e
	}
	return best
}

// oldestFirst orders the sessions ids by when they started (those not in
// memory last), then by id: a list no session used yet becomes the
// project's of the first session to use it, which is the one that made it
// when both are read in one round.
func (ix *Indexer) oldestFirst(ids map[string]bool) []string {
	start := make(map[string]time.Time, len(ids))
	out := make([]string, 0, len(ids))
	for id := range ids {
		out = append(out, id)
		for p := range ix.bySess[id] {
			if e := ix.files[p]; !e.cold && !e.st.StartedAt.IsZero() && (start[id].IsZero() || e.st.StartedAt.Before(start[id])) {
				start[id] = e.st.StartedAt
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		sa, sb := start[a], start[b]
		switch {
		case sa.Equal(sb):
			return strings.Compare(a, b)
		case sa.IsZero():
			return 1
		case sb.IsZero():
			return -1
		}
		return sa.Compare(sb)
	})
	return out
}

// linkable tells a list a session of project may be linked to: one the
// agent named for sharing, of that project or of none yet.
func linkable(list *entry, project string) bool {
	return list.found.Info.Shared && (list.st.Project == "" || project == "" || list.st.Project == project)
}

// mayUse tells whether the session whose main log is main may keep the
// link to list (its TasksIn): true when there is none, or when the list is
// not in hand to tell; false when the list is one it may not be linked
// to (a link an earlier version made by content alone).
func (ix *Indexer) mayUse(ctx context.Context, main *entry, list string, removed map[string]bool) bool {
	if list == "" {
		return true
	}
	for p := range ix.bySess[list] {
		e := ix.files[p]
		if removed[p] || e.found.Info.Layout != tally.LayoutDirectory || ix.warm(ctx, e) != nil {
			continue
		}
		return linkable(e, main.st.Project)
	}
	return true
}

// unlink drops the link of the session whose main log is main, on both
// sides: its tasks show in its own record again.
func (ix *Indexer) unlink(ctx context.Context, main *entry, changed map[string]*entry, touched, removed map[string]bool) {
	list := main.st.TasksIn
	if list == "" {
		return
	}
	id := main.st.Session
	main.st.TasksIn = ""
	changed[main.st.Path] = main
	touched[id] = true
	for p := range ix.bySess[list] {
		e := ix.files[p]
		if removed[p] || e.found.Info.Layout != tally.LayoutDirectory || ix.warm(ctx, e) != nil || !slices.Contains(e.st.Writers, id) {
			continue
		}
		e.st.Writers = slices.DeleteFunc(slices.Clone(e.st.Writers), func(w string) bool { return w == id })
		changed[e.st.Path] = e
		touched[list] = true
	}
}
