package index_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

const captured = "../testdata/fixtures/captured/claude-code-2.1.330/"

func capture(t *testing.T, scenario string) (sid string, lines [][]byte) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(captured, scenario, "config/projects/*/*.jsonl"))
	if len(matches) != 1 {
		t.Fatalf("capture %s: %v", scenario, matches)
	}
	data, err := os.ReadFile(matches[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if len(l) > 0 {
			lines = append(lines, l)
		}
	}
	return strings.TrimSuffix(filepath.Base(matches[0]), ".jsonl"), lines
}

// taskListResult is the agent's own record of its task list at a line: the
// toolUseResult of a TaskList call.
func taskListResult(line []byte) ([]string, bool) {
	var l struct {
		ToolUseResult json.RawMessage `json:"toolUseResult"`
	}
	if json.Unmarshal(line, &l) != nil || len(l.ToolUseResult) == 0 {
		return nil, false
	}
	var r struct {
		Tasks *[]struct{ ID, Subject, Status string } `json:"tasks"`
	}
	if json.Unmarshal(l.ToolUseResult, &r) != nil || r.Tasks == nil {
		return nil, false
	}
	var out []string
	for _, t := range *r.Tasks {
		out = append(out, t.ID+" "+t.Subject+" "+t.Status)
	}
	return out, true
}

func tasksOf(rec tally.Record) []string {
	var out []string
	for _, it := range rec.Lists[""] {
		if it.Source == tally.SourceTask {
			out = append(out, it.ID+" "+it.Title+" "+it.Status.String())
		}
	}
	sort.Strings(out)
	return out
}

type live struct {
	t       *testing.T
	home    string
	dbPath  string
	ix      *index.Indexer
	changes <-chan index.Change
	latest  map[string]tally.Record
	cancel  context.CancelFunc
	done    chan error
}

// stop ends Run and fails the test if Run is not back within a few
// seconds: shutdown must never wait for a file.
func (l *live) stop() {
	l.t.Helper()
	l.cancel()
	select {
	case err := <-l.done:
		if err != nil {
			l.t.Errorf("Run: %v", err)
		}
		l.done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		l.t.Fatal("Run was still busy 5 s after it was told to stop")
	}
}

func startLive(t *testing.T, rescan time.Duration) *live {
	t.Helper()
	return startLiveWith(t, index.Options{Rescan: rescan})
}

// startLiveWith runs an indexer with o over an empty Claude home.
func startLiveWith(t *testing.T, o index.Options) *live {
	t.Helper()
	home := t.TempDir()
	for _, root := range []string{"projects", "tasks"} {
		if err := os.MkdirAll(filepath.Join(home, root), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	dbPath := filepath.Join(t.TempDir(), "tally.db")
	st, err := sqlite.Open(ctx, dbPath)
	if err != nil {
		t.Fatal(err)
	}
	o.Adapters = []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}
	o.Store = st
	if sl, ok := o.SessionLists.(index.StoreLists); ok && sl.Store == nil {
		sl.Store = st
		o.SessionLists = sl
	}
	ix, err := index.New(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	sub := ix.Subscribe(100000)
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Run never returned")
			return
		}
		sub.Close()
		st.Close()
	})
	select {
	case <-ix.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("indexer not ready")
	}
	return &live{t: t, home: home, dbPath: dbPath, ix: ix, changes: sub.C, latest: map[string]tally.Record{}, cancel: cancel, done: done}
}

// waitFor reads changes until ok holds for session sid's latest record.
func (l *live) waitFor(sid, what string, ok func(tally.Record) bool) tally.Record {
	l.t.Helper()
	if rec, seen := l.latest[sid]; seen && ok(rec) {
		return rec
	}
	deadline := time.After(15 * time.Second)
	for {
		select {
		case c := <-l.changes:
			if c.Kind == index.SessionUpdated {
				l.latest[c.ID] = c.Record
			} else {
				delete(l.latest, c.ID)
			}
			if rec, seen := l.latest[sid]; seen && ok(rec) {
				return rec
			}
		case <-deadline:
			l.t.Fatalf("session %s never reached: %s (last: %+v)", sid, what, l.latest[sid].Lists)
		}
	}
}

func appendTo(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func TestIndexer_Run_FollowsAGrowingSession(t *testing.T) {
	l := startLive(t, time.Hour) // notifications alone must do it
	sid, lines := capture(t, "tasks")
	dir := filepath.Join(l.home, "projects", "-tmp-capture-cc-tasks-work")
	if err := os.MkdirAll(dir, 0o755); err != nil { // a new project directory appears
		t.Fatal(err)
	}
	path := filepath.Join(dir, sid+".jsonl")
	checked := 0
	for i, line := range lines {
		if i == len(lines)/2 {
			// A half-written line is left for the next read.
			appendTo(t, path, line[:len(line)/2])
			time.Sleep(20 * time.Millisecond)
			appendTo(t, path, line[len(line)/2:])
		} else {
			appendTo(t, path, line)
		}
		if want, ok := taskListResult(line); ok {
			sort.Strings(want)
			l.waitFor(sid, fmt.Sprintf("the TaskList result at line %d", i+1), func(r tally.Record) bool {
				return strings.Join(tasksOf(r), "|") == strings.Join(want, "|")
			})
			checked++
		}
	}
	if checked < 2 {
		t.Fatalf("checked %d TaskList results, the capture has 2", checked)
	}
	rec := l.waitFor(sid, "the whole file", func(r tally.Record) bool { return r.Stats.Lines == int64(len(lines)) })
	if rec.Project != "/tmp/capture/cc/tasks/work" {
		t.Errorf("project = %q", rec.Project)
	}
	if rec.Stats.Malformed != 0 {
		t.Errorf("malformed = %d: the half-written line was read before it was complete", rec.Stats.Malformed)
	}
}

func TestIndexer_Run_FileTruncatedAndRewritten(t *testing.T) {
	l := startLive(t, time.Hour)
	sid, tasks := capture(t, "tasks")
	_, todos := capture(t, "todowrite")
	dir := filepath.Join(l.home, "projects", "p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, sid+".jsonl")
	if err := os.WriteFile(path, bytes.Join(tasks, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	l.waitFor(sid, "the task list", func(r tally.Record) bool { return len(tasksOf(r)) == 2 })
	// The same file is truncated and rewritten with another session's
	// content: the old list must go, the new one come, nothing mixed.
	if err := os.WriteFile(path, bytes.Join(todos, nil), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := l.waitFor(sid, "the rewritten file's todos", func(r tally.Record) bool {
		items := r.Lists[""]
		return len(items) == 3 && items[2].Status == tally.StatusCompleted
	})
	if got := tasksOf(rec); len(got) != 0 {
		t.Fatalf("tasks of the old content survived the rewrite: %v", got)
	}
	if rec.Stats.Resets == 0 {
		t.Error("no reset counted")
	}
}

// TestIndexer_Scan_AFileThatShrankCountsWhatWasReadAgain: a log replaced
// by a shorter one is folded again from its start; the scan counts the
// lines and bytes it read, never the negative difference with the old.
func TestIndexer_Scan_AFileThatShrankCountsWhatWasReadAgain(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	sid, lines := capture(t, "todowrite")
	dir := filepath.Join(home, "projects", "p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, sid+".jsonl")
	appendTo(t, path, bytes.Join(lines, nil))
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	short := bytes.Join(lines[:10], nil)
	if err := os.WriteFile(path, short, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := ix.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s.Files != 1 || s.Reread != 1 || s.Lines != 10 || s.Bytes != int64(len(short)) {
		t.Errorf("scan of the shrunk file: files %d reread %d lines %d bytes %d; want 1, 1, 10, %d", s.Files, s.Reread, s.Lines, s.Bytes, len(short))
	}
}

func TestIndexer_Scan_CatchUpFindsWhatNotificationsMissed(t *testing.T) {
	// The periodic scan alone (no Run): bytes appended between scans are
	// read once, never twice.
	home := t.TempDir()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	sid, lines := capture(t, "todowrite")
	dir := filepath.Join(home, "projects", "p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, sid+".jsonl")
	half := len(lines) / 2
	appendTo(t, path, bytes.Join(lines[:half], nil))
	s1, err := ix.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	appendTo(t, path, bytes.Join(lines[half:], nil))
	s2, err := ix.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if s1.Lines+s2.Lines != int64(len(lines)) {
		t.Fatalf("lines read %d+%d, file has %d: bytes were read twice or not at all", s1.Lines, s2.Lines, len(lines))
	}
	s3, _ := ix.Scan(ctx)
	if s3.Files != 0 || s3.Lines != 0 || s3.Unchanged != 1 {
		t.Fatalf("a scan with nothing new read %d files, %d lines, found %d unchanged (want 0, 0, 1)", s3.Files, s3.Lines, s3.Unchanged)
	}
	rec, err := st.Record(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range rec.Lists[""] {
		if it.Status != tally.StatusCompleted {
			t.Errorf("item %q is %v; the capture ends with all completed", it.Title, it.Status)
		}
	}
}

func TestIndexer_Run_NewSessionAndSubAgentFilesAppear(t *testing.T) {
	l := startLive(t, time.Hour)
	src := filepath.Join(captured, "tasks-subagent/config/projects/-tmp-capture-cc-tasks-subagent-work")
	sid := "e277426f-1861-4a5b-b21f-e5791c308bc2"
	dir := filepath.Join(l.home, "projects", "-tmp-capture-cc-tasks-subagent-work")
	os.MkdirAll(dir, 0o755)
	main, err := os.ReadFile(filepath.Join(src, sid+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	appendTo(t, filepath.Join(dir, sid+".jsonl"), main)
	l.waitFor(sid, "the main list", func(r tally.Record) bool { return len(r.Lists[""]) > 0 })
	// The sub-agent's file appears later, in a directory that did not exist.
	sub, _ := filepath.Glob(filepath.Join(src, sid, "subagents", "agent-*.jsonl"))
	if len(sub) != 1 {
		t.Fatalf("sub-agent files: %v", sub)
	}
	data, _ := os.ReadFile(sub[0])
	subDir := filepath.Join(dir, sid, "subagents")
	os.MkdirAll(subDir, 0o755)
	appendTo(t, filepath.Join(subDir, filepath.Base(sub[0])), data)
	agent := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(sub[0]), "agent-"), ".jsonl")
	rec := l.waitFor(sid, "the sub-agent's own list", func(r tally.Record) bool { return len(r.Lists[agent]) > 0 })
	v := rec.Session(time.Now())
	if len(v.SubAgents) != 1 || v.SubAgents[0].ID != agent {
		t.Fatalf("sub-agents = %+v", v.SubAgents)
	}
}

func TestIndexer_Run_PublishesRecordsOtherProcessesCommit(t *testing.T) {
	l := startLive(t, time.Hour)
	// Another process (tally mcp) commits a task list straight to the
	// store; a second Store on the same database stands for it.
	db := l.dbPath
	other, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	rec := tally.Record{ID: "tally:release", Agent: tally.AgentTally, Title: "release", LastActivity: time.Now(),
		Lists: map[string][]tally.Item{"": {{ID: "1", Title: "Tag the release", Status: tally.StatusInProgress, Source: tally.SourceTask}}}}
	if err := other.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{rec}}); err != nil {
		t.Fatal(err)
	}
	got := l.waitFor("tally:release", "the list another process committed", func(r tally.Record) bool { return len(r.Lists[""]) == 1 })
	if got.Lists[""][0].Title != "Tag the release" {
		t.Fatalf("record = %+v", got)
	}
}

// failingStore fails the commits it is told to, like a database locked by
// another writer past its busy timeout.
type failingStore struct {
	tally.Store
	fail bool
}

func (f *failingStore) Commit(ctx context.Context, b tally.Batch) error {
	if f.fail {
		return tally.Errorf(tally.CodeUnavailable, "test", "database is locked")
	}
	return f.Store.Commit(ctx, b)
}

func TestIndexer_Scan_AFailedCommitIsRetriedNotLost(t *testing.T) {
	home := t.TempDir()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fs := &failingStore{Store: st, fail: true}
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: fs})
	if err != nil {
		t.Fatal(err)
	}
	sid, lines := capture(t, "todowrite")
	dir := filepath.Join(home, "projects", "p")
	os.MkdirAll(dir, 0o755)
	appendTo(t, filepath.Join(dir, sid+".jsonl"), bytes.Join(lines, nil))
	if _, err := ix.Scan(ctx); err == nil {
		t.Fatal("the scan hid a failed commit")
	}
	fs.fail = false
	if _, err := ix.Scan(ctx); err != nil { // nothing new on disk: only the retry
		t.Fatal(err)
	}
	rec, err := st.Record(ctx, sid)
	if err != nil {
		t.Fatalf("the session folded before the failed commit never reached the store: %v", err)
	}
	if len(rec.Lists[""]) != 3 {
		t.Fatalf("list = %+v", rec.Lists[""])
	}
}
