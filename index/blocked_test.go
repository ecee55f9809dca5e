package index_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// TestIndexer_anOrdinaryDependencyIsNotBlocked: the captured Claude Code
// session records TaskUpdate 3 addBlockedBy [2] ("Update README" waits on
// "Add unit test") while it works on task 1. Its own TaskList result says
// so: 1 in progress, 3 blocked by the open 2. That is order, not trouble:
// the session is not blocked, as detection stores it and as it is shown.
func TestIndexer_anOrdinaryDependencyIsNotBlocked(t *testing.T) {
	sid, lines := capture(t, "tasks")
	upTo := -1
	for i, l := range lines {
		if _, ok := taskListResult(l); ok {
			upTo = i
			break
		}
	}
	if upTo < 0 {
		t.Fatal("no TaskList result in the capture")
	}
	var truth struct {
		ToolUseResult struct {
			Tasks []struct {
				ID, Status string
				BlockedBy  []string
			}
		}
	}
	if err := json.Unmarshal(lines[upTo], &truth); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, tk := range truth.ToolUseResult.Tasks {
		status[tk.ID] = tk.Status
	}
	if status["1"] != "in_progress" || status["2"] != "pending" || len(truth.ToolUseResult.Tasks) != 3 ||
		len(truth.ToolUseResult.Tasks[2].BlockedBy) != 1 || truth.ToolUseResult.Tasks[2].BlockedBy[0] != "2" {
		t.Fatalf("the capture's TaskList is not the case this test is about: %+v", truth.ToolUseResult.Tasks)
	}

	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-tmp-capture-cc-tasks-work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	appendTo(t, filepath.Join(dir, sid+".jsonl"), bytes.Join(lines[:upTo+1], nil))
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 14, 6, 30, 0, time.UTC) // seconds after the capture's lines
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})},
		Store: st, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := st.Record(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Session(now)
	if !s.Items[2].Blocked {
		t.Errorf("Update README is not shown waiting on Add unit test: %+v", s.Items[2])
	}
	if rec.Flags.Has(tally.FlagBlocked) || s.Flags.Has(tally.FlagBlocked) || s.BlockedReason != "" {
		t.Errorf("flags stored %s, shown %s (%q): a task waiting on an open task while the agent works is not blocked",
			rec.Flags, s.Flags, s.BlockedReason)
	}
}

// TestIndexer_aTrackerTaskTheAgentSetBlockedBlocksWithItsReason: the
// captured Gemini CLI session sets its task "Add unit test" blocked with
// the description "Waiting for a decision on the test framework." (the
// tracker's own file says so): the agent said it cannot go on, and the
// reason is its own.
func TestIndexer_aTrackerTaskTheAgentSetBlockedBlocksWithItsReason(t *testing.T) {
	const fixture = "../testdata/fixtures/captured/gemini-cli-0.61.0/task-tracker/gemini_home"
	const sid = "1fb695ac-76cc-4120-8ded-da2b5d3b24a5"
	var truth struct{ Title, Description, Status string }
	b, err := os.ReadFile(filepath.Join(fixture, "tmp/work", sid, "tracker/33a9ea.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &truth); err != nil || truth.Status != "blocked" {
		t.Fatalf("the tracker's file is not the case this test is about: %s", b)
	}
	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := time.Date(2026, 11, 22, 14, 7, 0, 0, time.UTC)
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{gemini.New(gemini.Options{Home: home})},
		Store: st, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := st.Record(ctx, sid)
	if err != nil {
		t.Fatal(err)
	}
	s := rec.Session(now)
	if want := truth.Title + ": " + truth.Description; !s.Flags.Has(tally.FlagBlocked) || s.BlockedReason != want {
		t.Errorf("flags %s, reason %q; want blocked: %q", s.Flags, s.BlockedReason, want)
	}
}
