package storetest

import (
	"context"
	"fmt"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// testChanged: Changed returns what was committed after a mark, in commit
// order, each session once at its newest, and nothing when nothing changed.
func testChanged(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	ctx := context.Background()
	recs, mark, err := s.Changed(ctx, 0)
	if err != nil || len(recs) != 0 {
		t.Fatalf("Changed on an empty store = %d records, %v", len(recs), err)
	}
	commit(t, s, tally.Batch{Sessions: []tally.Record{fullRecord("a", "claude", "/p", at(1)), fullRecord("b", "codex", "/p", at(2))}})
	recs, mark, err = s.Changed(ctx, mark)
	if err != nil || len(recs) != 2 {
		t.Fatalf("after the first commit: %d records, %v", len(recs), err)
	}
	if now, err := s.ChangeMark(ctx); err != nil || now != mark {
		t.Fatalf("ChangeMark = %d, %v; Changed said %d", now, err, mark)
	}
	again, mark2, _ := s.Changed(ctx, mark)
	if len(again) != 0 || mark2 != mark {
		t.Fatalf("nothing committed, yet Changed gave %d records (mark %d → %d)", len(again), mark, mark2)
	}
	upd := fullRecord("a", "claude", "/p", at(3))
	upd.Title = "renamed"
	commit(t, s, tally.Batch{Sessions: []tally.Record{upd}})
	recs, _, err = s.Changed(ctx, mark)
	if err != nil || len(recs) != 1 || recs[0].ID != "a" || recs[0].Title != "renamed" {
		t.Fatalf("after updating a: %+v, %v", recs, err)
	}
}

// testChangedLimit: pages of Changed, read on from each page's mark, give
// every change once, in order, and a record changed meanwhile comes again
// later rather than being lost.
func testChangedLimit(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	ctx := context.Background()
	for i := range 5 {
		commit(t, s, tally.Batch{Sessions: []tally.Record{fullRecord(fmt.Sprint("r", i), claude.Agent, "/p", at(i))}})
	}
	var got []string
	var mark int64
	for page := 0; ; page++ {
		recs, next, err := s.ChangedLimit(ctx, mark, 2)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) == 0 {
			if next != mark {
				t.Errorf("an empty page moved the mark from %d to %d", mark, next)
			}
			break
		}
		if len(recs) > 2 {
			t.Fatalf("a page of 2 holds %d", len(recs))
		}
		mark = next
		got = append(got, ids(recs)...)
		if page == 0 {
			// r0 changes again while the pages are read.
			commit(t, s, tally.Batch{Sessions: []tally.Record{fullRecord("r0", claude.Agent, "/p", at(9))}})
		}
	}
	equal(t, "pages", got, []string{"r0", "r1", "r2", "r3", "r4", "r0"})
	if all, _, _ := s.Changed(ctx, 0); len(all) != 5 {
		t.Errorf("Changed(0) = %d records, want each of 5 once", len(all))
	}
}

// testSessionFiles: a session's files are its own, each as saved.
func testSessionFiles(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	f := fullFile("/logs/a.jsonl", "s1", 1)
	commit(t, s, tally.Batch{Files: []*tally.FileState{f, fullFile("/logs/b.jsonl", "other", 1)}})
	got, err := s.SessionFiles(context.Background(), "s1")
	if err != nil || len(got) != 1 {
		t.Fatalf("SessionFiles = %d files, %v", len(got), err)
	}
	equal(t, "SessionFiles", got[0], f)
	if none, err := s.SessionFiles(context.Background(), "nobody"); err != nil || len(none) != 0 {
		t.Errorf("SessionFiles of a session with none = %d files, %v", len(none), err)
	}
}
