package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/hook"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/tasks"
)

// A Claude Code session and its Tally list (the list `tally mcp` keeps
// for it, named after the session Claude Code tells it) are one thing:
// the list is shown inside the session's record, as the session's own
// transcript (a real capture) is, and never as a session of its own —
// also when `tally mcp`, another process, changes it while Tally runs.
func TestIndexer_Run_ASessionsTallyListIsShownInsideIt(t *testing.T) {
	l := startLiveWith(t, index.Options{Rescan: time.Hour, PollStore: 20 * time.Millisecond,
		SessionLists: index.StoreLists{Agents: []tally.Agent{claude.Agent}, Name: hook.SessionList}})
	sid, lines := capture(t, "tasks")
	name := hook.SessionList(claude.Agent, sid)
	key := tasks.SessionPrefix + name
	// tally mcp, started by Claude Code for this session, in a process of
	// its own.
	mcp, err := sqlite.Open(context.Background(), l.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer mcp.Close()
	create := func(subject string) {
		t.Helper()
		if _, err := mcp.UpdateTaskList(context.Background(), name, func(tl *tasks.List) error {
			_, err := tl.Create(tasks.CreateArgs{Subject: subject}, time.Now())
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	create("Review the greeting")
	dir := filepath.Join(l.home, "projects", "-tmp-capture-cc-tasks-work")
	os.MkdirAll(dir, 0o755)
	for _, line := range lines {
		appendTo(t, filepath.Join(dir, sid+".jsonl"), line)
	}
	titles := func(items []tally.Item) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Title)
		}
		return out
	}
	has := func(want ...string) func(tally.Record) bool {
		return func(r tally.Record) bool {
			got := titles(r.Lists[key])
			return len(r.Lists[""]) > 0 && r.Names[key] == index.TallyListName && len(got) == len(want) && (len(want) == 0 || got[len(got)-1] == want[len(want)-1])
		}
	}
	l.waitFor(sid, "its Tally list inside it", has("Review the greeting"))
	create("Publish the package")
	rec := l.waitFor(sid, "the list's change inside it", has("Review the greeting", "Publish the package"))
	if sub := rec.Session(time.Now()).SubAgents; len(sub) != 1 || sub[0].Label() != index.TallyListName {
		t.Errorf("lists beside the session's own: %+v", sub)
	}
	if _, shown := l.latest[key]; shown {
		t.Errorf("%s was published as a session of its own", key)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		recs, err := mcp.Records(context.Background(), tally.SessionFilter{})
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]bool{}
		for _, r := range recs {
			ids[r.ID] = true
		}
		if !ids[key] && ids[sid] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store lists %v: want the session and not its list", ids)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if l, err := mcp.TaskList(context.Background(), name); err != nil || len(l.Tasks) != 2 {
		t.Errorf("the list itself: %+v, %v", l.Tasks, err)
	}
}
