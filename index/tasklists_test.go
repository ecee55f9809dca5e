package index_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// The capture of two Claude Code sessions sharing one task list
// (CLAUDE_CODE_TASK_LIST_ID=greet.team): the lead, then the mate, then the
// lead resumed.
const (
	sharedCapture = captured + "tasks-shared/"
	sharedSlug    = "-tmp-capture-ccfiles-cc-tasks-shared-work"
	lead          = "3942d508-706d-4330-9dff-974fc3295123"
	mate          = "c675fb81-fd03-4893-b096-64acff049409"
	sharedList    = "greet-team"
)

// filesView is a task list as Claude Code's own files hold it, read
// without Tally's decoder: "id subject status owner blockedBy".
func filesView(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range paths {
		var f struct {
			ID, Subject, Status, Owner string
			BlockedBy                  []string
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s %s %s %s %v", f.ID, f.Subject, f.Status, f.Owner, f.BlockedBy))
	}
	sort.Strings(out)
	return out
}

// shownView is the same of what Tally shows: a record's main-list tasks.
func shownView(rec tally.Record) []string {
	var out []string
	for _, it := range rec.Session(time.Now()).Items {
		if it.Source == tally.SourceTask {
			out = append(out, fmt.Sprintf("%s %s %s %s %v", it.ID, it.Title, it.StatusWord(), it.Owner, it.BlockedBy))
		}
	}
	sort.Strings(out)
	return out
}

func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

type scanner struct {
	t    *testing.T
	home string
	st   *sqlite.Store
}

func newScanner(t *testing.T) *scanner {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &scanner{t: t, home: t.TempDir(), st: st}
}

// scan runs a fresh indexer (as a new tally process would) over the home.
func (s *scanner) scan() {
	s.t.Helper()
	ctx := context.Background()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: s.home})}, Store: s.st})
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		s.t.Fatal(err)
	}
}

func (s *scanner) record(id string) tally.Record {
	s.t.Helper()
	rec, err := s.st.Record(context.Background(), id)
	if err != nil {
		s.t.Fatalf("%s: %v", id, err)
	}
	return rec
}

func (s *scanner) ids() []string {
	s.t.Helper()
	recs, err := s.st.Records(context.Background(), tally.SessionFilter{})
	if err != nil {
		s.t.Fatal(err)
	}
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	sort.Strings(out)
	return out
}

// A list two sessions share is one list, shown once, exactly as its files
// are, with the sessions that use it; neither session shows its own
// (stale, and different) copy of it.
func TestIndexer_Scan_ASharedTaskListIsOneListWithTheSessionsThatUseIt(t *testing.T) {
	s := newScanner(t)
	copyTree(t, sharedCapture+"config", s.home)
	s.scan()
	if got, want := s.ids(), []string{lead, mate, sharedList}; !reflect.DeepEqual(got, want) {
		t.Fatalf("records %v, want %v", got, want)
	}
	list := s.record(sharedList)
	if want := filesView(t, filepath.Join(s.home, "tasks", sharedList)); !reflect.DeepEqual(shownView(list), want) {
		t.Errorf("shared list shows\n %q\nthe files hold\n %q", shownView(list), want)
	}
	if !list.Shared || list.Project != "/tmp/capture-ccfiles/cc/tasks-shared/work" {
		t.Errorf("shared %v project %q", list.Shared, list.Project)
	}
	writers := append([]string(nil), list.Writers...)
	sort.Strings(writers)
	if !reflect.DeepEqual(writers, []string{lead, mate}) {
		t.Errorf("writers %v, want both sessions", list.Writers)
	}
	for _, id := range []string{lead, mate} {
		rec := s.record(id)
		if rec.TasksIn != sharedList {
			t.Errorf("%s: tasksIn %q, want %s", id, rec.TasksIn, sharedList)
		}
		if got := shownView(rec); len(got) != 0 {
			t.Errorf("%s shows its own copy of the shared list: %q", id, got)
		}
	}
}

// With no transcript at all, the list is still exactly its files.
func TestIndexer_Scan_ASharedListIsExactWithoutAnyTranscript(t *testing.T) {
	s := newScanner(t)
	copyTree(t, sharedCapture+"config/tasks", filepath.Join(s.home, "tasks"))
	s.scan()
	list := s.record(sharedList)
	if want := filesView(t, filepath.Join(s.home, "tasks", sharedList)); !reflect.DeepEqual(shownView(list), want) {
		t.Errorf("shows %q, files hold %q", shownView(list), want)
	}
	if !list.Shared || len(list.Writers) != 0 || list.Title != "Task list greet-team" {
		t.Errorf("record %+v", list)
	}
}

// The sessions' transcripts are read before the list appears (a later
// scan of the same indexer finds it): they are linked then, though their
// logs are long over and out of memory, and the link survives a restart
// whose indexer reads only a new line of one of them.
func TestIndexer_Scan_SessionsReadBeforeTheirListAreLinkedWhenItComes(t *testing.T) {
	s := newScanner(t)
	ctx := context.Background()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: s.home})}, Store: s.st})
	if err != nil {
		t.Fatal(err)
	}
	copyTree(t, sharedCapture+"config/projects", filepath.Join(s.home, "projects"))
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if rec := s.record(mate); rec.TasksIn != "" || len(shownView(rec)) == 0 {
		t.Fatalf("with no list on disk the mate shows its own tasks: %+v", rec)
	}
	copyTree(t, sharedCapture+"config/tasks", filepath.Join(s.home, "tasks"))
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{lead, mate} {
		if rec := s.record(id); rec.TasksIn != sharedList || len(shownView(rec)) != 0 {
			t.Errorf("%s once the list is there: tasksIn %q, tasks %q", id, rec.TasksIn, shownView(rec))
		}
	}
	if n := len(s.record(sharedList).Writers); n != 2 {
		t.Errorf("writers %v", s.record(sharedList).Writers)
	}
	appendTo(t, filepath.Join(s.home, "projects", sharedSlug, lead+".jsonl"),
		[]byte(`{"type":"user","timestamp":"2026-11-23T18:10:00Z","sessionId":"`+lead+`","message":{"role":"user","content":"thanks"}}`+"\n"))
	s.scan()
	if rec := s.record(lead); rec.TasksIn != sharedList || len(shownView(rec)) != 0 {
		t.Errorf("after a restart and a new line: tasksIn %q, tasks %q", rec.TasksIn, shownView(rec))
	}
}

// A session that gets a list of its own (named after it) uses that one:
// its link to the shared list is dropped and its own files show.
func TestIndexer_Scan_ASessionWithAListOfItsOwnIsNotLinked(t *testing.T) {
	s := newScanner(t)
	ctx := context.Background()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: s.home})}, Store: s.st})
	if err != nil {
		t.Fatal(err)
	}
	copyTree(t, sharedCapture+"config", s.home)
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if s.record(lead).TasksIn != sharedList {
		t.Fatal("not linked to begin with")
	}
	own := filepath.Join(s.home, "tasks", lead)
	os.MkdirAll(own, 0o755)
	if err := os.WriteFile(filepath.Join(own, "1.json"), []byte(`{"id":"1","subject":"Solo work","description":"","status":"in_progress","blocks":[],"blockedBy":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rec := s.record(lead)
	if rec.TasksIn != "" || !reflect.DeepEqual(shownView(rec), []string{"1 Solo work in_progress  []"}) {
		t.Errorf("tasksIn %q, tasks %q: the session's own list is its list", rec.TasksIn, shownView(rec))
	}
}

// A session's own list (named after it) is read from its files too: when
// the transcript lags behind them (cut here after the first TaskList), the
// files win, and the record is still one session.
func TestIndexer_Scan_ASessionsOwnTaskFilesWinOverItsTranscript(t *testing.T) {
	s := newScanner(t)
	sid, lines := capture(t, "tasks")
	cut := 0
	for i, l := range lines {
		if _, ok := taskListResult(l); ok {
			cut = i + 1
			break
		}
	}
	dir := filepath.Join(s.home, "projects", "p")
	os.MkdirAll(dir, 0o755)
	appendTo(t, filepath.Join(dir, sid+".jsonl"), bytes.Join(lines[:cut], nil))
	copyTree(t, captured+"tasks/config/tasks", filepath.Join(s.home, "tasks"))
	s.scan()
	if got := s.ids(); !reflect.DeepEqual(got, []string{sid}) {
		t.Fatalf("records %v, want the one session", got)
	}
	rec := s.record(sid)
	if want := filesView(t, filepath.Join(s.home, "tasks", sid)); !reflect.DeepEqual(shownView(rec), want) {
		t.Errorf("shows %q, the files hold %q", shownView(rec), want)
	}
	if rec.Shared || rec.TasksIn != "" || rec.Title == "" || rec.Title == "Task list "+sid {
		t.Errorf("record %+v: it is the session, titled by its transcript", rec)
	}
}

// writeLikeClaude brings dir to the state of snap as Claude Code writes its
// task files: a new task's file is created then written, a changed one is
// written beside and renamed over, a deleted one removed (and
// .highwatermark written).
func writeLikeClaude(t *testing.T, snap, dir string) {
	t.Helper()
	want := map[string][]byte{}
	entries, _ := os.ReadDir(snap)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(snap, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		want[e.Name()] = data
	}
	have, _ := os.ReadDir(dir)
	for _, e := range have {
		if _, ok := want[e.Name()]; !ok && strings.HasSuffix(e.Name(), ".json") {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, data := range want {
		path := filepath.Join(dir, name)
		old, err := os.ReadFile(path)
		switch {
		case err == nil && bytes.Equal(old, data):
		case err == nil:
			tmp := path + ".tmp.5f80f317"
			if err := os.WriteFile(tmp, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, path); err != nil {
				t.Fatal(err)
			}
		default:
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644)
			if err != nil {
				t.Fatal(err)
			}
			f.Write(data)
			f.Close()
		}
	}
}

// Live, by notifications alone: every state the shared list's files went
// through, written as Claude Code writes them, is what Tally shows next;
// then the sessions' transcripts arrive and are linked to it.
func TestIndexer_Run_FollowsATaskListsFilesLive(t *testing.T) {
	l := startLive(t, time.Hour)
	dir := filepath.Join(l.home, "tasks", sharedList)
	snaps, _ := filepath.Glob(filepath.Join(sharedCapture, "harness/snapshots/*/tasks", sharedList))
	if len(snaps) < 20 {
		t.Fatalf("snapshots: %v", snaps)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil { // the list directory appears
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".lock"), nil, 0o644)
	changed := 0
	var prev []string
	for _, snap := range snaps {
		want := filesView(t, snap)
		writeLikeClaude(t, snap, dir)
		if reflect.DeepEqual(want, prev) {
			continue
		}
		prev = want
		changed++
		l.waitFor(sharedList, "the files of "+snap, func(r tally.Record) bool {
			return reflect.DeepEqual(shownView(r), want)
		})
	}
	if changed < 6 {
		t.Fatalf("only %d distinct states replayed", changed)
	}
	projects := filepath.Join(l.home, "projects", sharedSlug)
	os.MkdirAll(projects, 0o755)
	for _, id := range []string{lead, mate} {
		data, err := os.ReadFile(filepath.Join(sharedCapture, "config/projects", sharedSlug, id+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		appendTo(t, filepath.Join(projects, id+".jsonl"), data)
		l.waitFor(id, "linked to the shared list", func(r tally.Record) bool { return r.TasksIn == sharedList })
		l.waitFor(sharedList, id+" among the writers", func(r tally.Record) bool {
			for _, w := range r.Writers {
				if w == id {
					return true
				}
			}
			return false
		})
	}
	// Every task removed by hand: the list is empty, not gone, while its
	// .highwatermark is there.
	for _, p := range must(filepath.Glob(filepath.Join(dir, "*.json"))) {
		os.Remove(p)
	}
	l.waitFor(sharedList, "an empty list", func(r tally.Record) bool { return len(shownView(r)) == 0 })
	// The list's directory removed: the list is gone, and its sessions show
	// their own record of their tasks again.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{lead, mate} {
		l.waitFor(id, "its own tasks again", func(r tally.Record) bool { return r.TasksIn == "" && len(shownView(r)) > 0 })
	}
	deadline := time.After(15 * time.Second)
	for _, ok := l.latest[sharedList]; ok; _, ok = l.latest[sharedList] {
		select {
		case c := <-l.changes:
			if c.Kind == index.SessionRemoved {
				delete(l.latest, c.ID)
			}
		case <-deadline:
			t.Fatal("the removed list was never removed")
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// copySession copies one capture's transcripts under home/projects,
// replacing the folder it ran in with project when one is given, as if
// it had run there.
func copySession(t *testing.T, scenario, home, project string) {
	t.Helper()
	root := captured + scenario + "/config/projects"
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if project != "" {
			data = bytes.ReplaceAll(data, []byte("/tmp/capture/cc/"+scenario+"/work"), []byte(project))
		}
		rel, _ := filepath.Rel(root, p)
		dst := filepath.Join(home, "projects", rel)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A list Claude Code named after a session is that session's alone: a
// session of the same project with no list of its own, whose tasks have
// the same ids and titles (the same work planned twice), keeps showing
// its own tasks and is not told they are in the other's list.
func TestIndexer_Scan_ASessionsOwnListIsNeverSharedByContent(t *testing.T) {
	s := newScanner(t)
	copyTree(t, captured+"tasks/config", s.home)
	copySession(t, "tasks-partial", s.home, "/tmp/capture/cc/tasks/work")
	s.scan()
	other, _ := capture(t, "tasks-partial")
	rec := s.record(other)
	if rec.TasksIn != "" || len(shownView(rec)) == 0 {
		t.Errorf("tasksIn %q, tasks %q: the session's own tasks are its list", rec.TasksIn, shownView(rec))
	}
	own, _ := capture(t, "tasks")
	if w := s.record(own).Writers; len(w) != 0 {
		t.Errorf("writers of %s's own list: %v", own, w)
	}
}

// A shared list (CLAUDE_CODE_TASK_LIST_ID) is linked only to sessions of
// its project: the teammate's session, as if run in another folder,
// keeps its own tasks though it read the list; the list is the project of
// the lead, who made it.
func TestIndexer_Scan_ASharedListIsLinkedOnlyWithinItsProject(t *testing.T) {
	s := newScanner(t)
	copyTree(t, sharedCapture+"config", s.home)
	mateLog := filepath.Join(s.home, "projects", sharedSlug, mate+".jsonl")
	data, err := os.ReadFile(mateLog)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(mateLog, bytes.ReplaceAll(data, []byte("/tmp/capture-ccfiles/cc/tasks-shared/work"), []byte("/tmp/elsewhere")), 0o644)
	s.scan()
	if rec := s.record(mate); rec.TasksIn != "" || len(shownView(rec)) == 0 {
		t.Errorf("tasksIn %q, tasks %q: a session of another project keeps its own list", rec.TasksIn, shownView(rec))
	}
	if rec := s.record(lead); rec.TasksIn != sharedList {
		t.Errorf("lead: tasksIn %q, want %s", rec.TasksIn, sharedList)
	}
	list := s.record(sharedList)
	if !reflect.DeepEqual(list.Writers, []string{lead}) || list.Project != "/tmp/capture-ccfiles/cc/tasks-shared/work" {
		t.Errorf("writers %v, project %q: want the lead's", list.Writers, list.Project)
	}
}

// A copy of a session's transcript under another session id (a fork: the
// new session starts with the old one's lines, its TaskList answers
// included) with no list of its own is not linked to the old session's
// list, though it read it: that list is named after the old session and
// is its alone.
func TestIndexer_Scan_AForkIsNotLinkedToTheListOfTheSessionItCameFrom(t *testing.T) {
	s := newScanner(t)
	copyTree(t, captured+"tasks-subagent/config", s.home)
	from, _ := capture(t, "tasks-subagent")
	const fork = "0b9f7c1e-2d4a-4e8b-9c3f-5a6d7e8f9a0b"
	logs, _ := filepath.Glob(filepath.Join(s.home, "projects", "*", from+".jsonl"))
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(filepath.Dir(logs[0]), fork+".jsonl"), bytes.ReplaceAll(data, []byte(from), []byte(fork)), 0o644)
	s.scan()
	if rec := s.record(fork); rec.TasksIn != "" || len(shownView(rec)) == 0 {
		t.Errorf("tasksIn %q, tasks %q: the fork shows its own tasks", rec.TasksIn, shownView(rec))
	}
	if w := s.record(from).Writers; len(w) != 0 {
		t.Errorf("writers of %s's own list: %v", from, w)
	}
}

// A link made before these rules (by the tasks alone, across projects) is
// dropped on both sides the next time the session is read: saved here as
// such a link, the teammate's session in another project.
func TestIndexer_Scan_ALinkAcrossProjectsFromBeforeIsDropped(t *testing.T) {
	s := newScanner(t)
	copyTree(t, sharedCapture+"config", s.home)
	s.scan()
	ctx := context.Background()
	mateLog := filepath.Join(s.home, "projects", sharedSlug, mate+".jsonl")
	st, err := s.st.File(ctx, mateLog)
	if err != nil || st.TasksIn != sharedList {
		t.Fatalf("not linked to begin with: %v, %+v", err, st)
	}
	st.Project = "/tmp/elsewhere"
	rec := s.record(mate)
	rec.Project = st.Project
	if err := s.st.Commit(ctx, tally.Batch{Files: []*tally.FileState{st}, Sessions: []tally.Record{rec}}); err != nil {
		t.Fatal(err)
	}
	appendTo(t, mateLog, []byte(`{"type":"user","timestamp":"2026-11-23T18:10:00Z","sessionId":"`+mate+`","message":{"role":"user","content":"thanks"}}`+"\n"))
	s.scan()
	if rec := s.record(mate); rec.TasksIn != "" || len(shownView(rec)) == 0 {
		t.Errorf("tasksIn %q, tasks %q: the link is dropped", rec.TasksIn, shownView(rec))
	}
	if w := s.record(sharedList).Writers; !reflect.DeepEqual(w, []string{lead}) {
		t.Errorf("writers %v, want the lead alone", w)
	}
}
