package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
)

func testUpsert(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	commit(t, s, tally.Batch{
		Files:    []*tally.FileState{fullFile("/logs/a.jsonl", "sess-a", 1)},
		Sessions: []tally.Record{fullRecord("sess-a", claude.Agent, "/old/project", at(1))},
	})
	// The file was read further: a shorter list, a new offset, no decoder
	// state. Nothing of the old state may survive.
	next := &tally.FileState{
		Path: "/logs/a.jsonl", Agent: claude.Agent, Session: "sess-a", Offset: 5000,
		LastAt: at(9), Lists: map[string]*tally.List{"": {Todos: []tally.Item{{Title: "Only one", Status: tally.StatusPending}}}},
	}
	rec := tally.Record{ID: "sess-a", Agent: claude.Agent, Project: "/new/project", LastActivity: at(9)}
	commit(t, s, tally.Batch{Files: []*tally.FileState{next}, Sessions: []tally.Record{rec}})

	got := files(t, s)
	equal(t, "paths", sortedKeys(got), []string{"/logs/a.jsonl"})
	equal(t, "state after overwrite", got["/logs/a.jsonl"], next)
	list := sessions(t, s, tally.SessionFilter{})
	equal(t, "sessions after overwrite", list, []tally.Record{rec})
	// The filter columns follow the record: the old project is gone.
	if got := sessions(t, s, tally.SessionFilter{Project: "old"}); len(got) != 0 {
		t.Errorf("filter by the old project still finds %v", ids(got))
	}
}

func testRemoval(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	commit(t, s, tally.Batch{
		Files: []*tally.FileState{
			fullFile("/logs/a.jsonl", "sess-a", 1), fullFile("/logs/a/sub.jsonl", "sess-a", 1), fullFile("/logs/b.jsonl", "sess-b", 1),
		},
		Sessions: []tally.Record{
			fullRecord("sess-a", claude.Agent, "/p", at(1)), fullRecord("sess-b", claude.Agent, "/p", at(2)),
		},
	})
	// sess-b's only file is gone, and one of sess-a's two.
	commit(t, s, tally.Batch{
		Sessions:        []tally.Record{fullRecord("sess-a", claude.Agent, "/p", at(3))},
		RemovedFiles:    []string{"/logs/b.jsonl", "/logs/a/sub.jsonl"},
		RemovedSessions: []string{"sess-b"},
	})
	equal(t, "files left", sortedKeys(files(t, s)), []string{"/logs/a.jsonl"})
	equal(t, "sessions left", ids(sessions(t, s, tally.SessionFilter{})), []string{"sess-a"})
	if _, err := s.Record(context.Background(), "sess-b"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("Record(removed): %v, want not_found", err)
	}
}

// testAtomic commits a good batch, then batches that must fail as a whole,
// each with valid elements before the bad one, and checks that every read
// still shows the first batch.
func testAtomic(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	good := tally.Batch{
		Files:    []*tally.FileState{fullFile("/logs/a.jsonl", "sess-a", 1)},
		Sessions: []tally.Record{fullRecord("sess-a", claude.Agent, "/p", at(1))},
	}
	commit(t, s, good)
	wantFiles := files(t, s)
	wantSessions := sessions(t, s, tally.SessionFilter{})

	// Every bad batch would, if applied even in part, move a.jsonl's
	// offset, add b.jsonl and sess-b, and remove sess-a.
	partial := func() tally.Batch {
		return tally.Batch{
			Files:           []*tally.FileState{fullFile("/logs/a.jsonl", "sess-a", 2), fullFile("/logs/b.jsonl", "sess-b", 2)},
			Sessions:        []tally.Record{fullRecord("sess-b", codex.Agent, "/q", at(2))},
			RemovedSessions: []string{"sess-a"},
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		bad  func(*tally.Batch)
		code tally.Code // the code the contract fixes; CodeInternal: any error
	}{
		{"record without id", context.Background(), func(b *tally.Batch) {
			b.Sessions = append(b.Sessions, tally.Record{Agent: claude.Agent, LastActivity: at(3)})
		}, tally.CodeInvalid},
		{"file without path", context.Background(), func(b *tally.Batch) {
			b.Files = append(b.Files, &tally.FileState{Session: "sess-c", Offset: 7})
		}, tally.CodeInvalid},
		{"time JSON cannot hold", context.Background(), func(b *tally.Batch) {
			b.Sessions = append(b.Sessions, fullRecord("sess-y10k", claude.Agent, "/p", time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)))
		}, tally.CodeInvalid},
		{"context cancelled", cancelled, func(*tally.Batch) {}, tally.CodeInternal},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := partial()
			tc.bad(&b)
			err := s.Commit(tc.ctx, b)
			if err == nil {
				t.Fatal("Commit succeeded, want an error")
			}
			if tc.code != tally.CodeInternal && tally.ErrorCode(err) != tc.code {
				t.Errorf("Commit: %v (code %v), want code %v", err, tally.ErrorCode(err), tc.code)
			}
			equal(t, "files after the failed batch", files(t, s), wantFiles)
			equal(t, "sessions after the failed batch", sessions(t, s, tally.SessionFilter{}), wantSessions)
		})
	}
}
