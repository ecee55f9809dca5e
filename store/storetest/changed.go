package storetest

import (
	"context"
	"testing"

	"github.com/tallyhq/tally"
)

// testChanged: Changed returns what was committed after a mark, in commit
// order, each session once at its newest, and nothing when nothing changed.
func testChanged(t *testing.T, open Opener) {
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
