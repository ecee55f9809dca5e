package index

import (
	"context"
	"slices"
	"strings"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

// An agent that tells the MCP servers it starts which session they serve
// (Claude Code's CLAUDE_CODE_SESSION_ID) gets, from `tally mcp`, a Tally
// list of that session: the list a call naming none uses. The session and
// its list are one thing, so the list is shown inside the session's
// record (Record.Lists under tasks.SessionPrefix and the list's name,
// named "Tally list"), not as a session of its own: the indexer, the one
// writer of sessions' records, attaches it to each record it commits, and
// when `tally mcp` (another process) changes the list, commits the
// session again with it and removes the list's own record, which the
// task tools write for lists of no session.

// SessionLists finds the Tally lists of agents' sessions.
type SessionLists interface {
	// SessionList reads the Tally list of an agent's session; ok is
	// false when it has none.
	SessionList(ctx context.Context, agent tally.Agent, session string) (l tasks.List, ok bool, err error)
	// ListSession names the session a Tally list is the list of; ok is
	// false for a list of no session.
	ListSession(name string) (agent tally.Agent, session string, ok bool)
}

// TallyListName is what a session's Tally list is called in its record.
const TallyListName = "Tally list"

// attachTallyList adds the Tally list of the session rec is, if it has
// one, to rec.
func (ix *Indexer) attachTallyList(ctx context.Context, rec *tally.Record) {
	if ix.o.SessionLists == nil || rec.Agent == tally.AgentTally || rec.ID == "" {
		return
	}
	l, ok, err := ix.o.SessionLists.SessionList(ctx, rec.Agent, rec.ID)
	if err != nil {
		ix.diag(tally.Diagnostic{Path: rec.ID, Msg: "reading the session's Tally list: " + err.Error()})
		return
	}
	if !ok {
		return
	}
	key := tasks.SessionPrefix + l.Name
	if rec.Lists == nil {
		rec.Lists = make(map[string][]tally.Item)
	}
	if rec.Names == nil {
		rec.Names = make(map[string]string)
	}
	rec.Lists[key] = l.Record().Lists[""]
	rec.Names[key] = TallyListName
	if was, err := ix.stored(ctx, key); err == nil && was && !slices.Contains(ix.drop, key) {
		ix.drop = append(ix.drop, key)
	}
}

// sessionOfList is the session a changed record of a Tally list belongs
// to, when this indexer holds that session's main log (warm), else nil.
func (ix *Indexer) sessionOfList(ctx context.Context, rec tally.Record) *entry {
	if ix.o.SessionLists == nil || rec.Agent != tally.AgentTally || rec.TaskList == nil {
		return nil
	}
	agent, session, ok := ix.o.SessionLists.ListSession(rec.TaskList.Name)
	if !ok || ix.held(session) {
		return nil
	}
	main, _ := ix.mainLog(session, nil)
	if main == nil || main.st.Agent != agent || ix.warm(ctx, main) != nil {
		return nil
	}
	return main
}

// TaskLister reads Tally lists (tasks.Store's read).
type TaskLister interface {
	TaskList(ctx context.Context, name string) (tasks.List, error)
}

// StoreLists is SessionLists over a store's Tally lists: the list of a
// session of one of Agents is Name(agent, session), as `tally mcp` names
// it (hook.SessionList).
type StoreLists struct {
	Store  TaskLister
	Agents []tally.Agent
	Name   func(agent tally.Agent, session string) string
}

func (s StoreLists) SessionList(ctx context.Context, agent tally.Agent, session string) (tasks.List, bool, error) {
	if !slices.Contains(s.Agents, agent) {
		return tasks.List{}, false, nil
	}
	l, err := s.Store.TaskList(ctx, s.Name(agent, session))
	switch {
	case tally.ErrorCode(err) == tally.CodeNotFound:
		return tasks.List{}, false, nil
	case err != nil:
		return tasks.List{}, false, err
	}
	return l, true, nil
}

func (s StoreLists) ListSession(name string) (tally.Agent, string, bool) {
	for _, a := range s.Agents {
		if session, ok := strings.CutPrefix(name, string(a)+"-"); ok && session != "" && s.Name(a, session) == name {
			return a, session, true
		}
	}
	return "", "", false
}
