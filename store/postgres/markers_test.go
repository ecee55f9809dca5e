package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

var markerAt = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func foundMarker(session string, off int64, task string) tally.FoundMarker {
	return tally.FoundMarker{
		Key: tally.MarkerKey(session, "", off, 0), Session: session, Project: "/work/" + session,
		Marker: tally.Marker{Task: task, Verb: "start", Offset: off, At: markerAt.Add(time.Duration(off) * time.Second)},
	}
}

func pendingKeys(t *testing.T, s *Store) []string {
	t.Helper()
	ms, err := s.PendingMarkers(context.Background(), 1000)
	if err != nil {
		t.Fatalf("PendingMarkers: %v", err)
	}
	var keys []string
	for _, m := range ms {
		keys = append(keys, m.Key)
	}
	return keys
}

// TestMarkers_DamagedRowsSkippedAndCounted: a marker someone broke with
// psql (JSON of the wrong shape, an unknown verdict word) is left out of
// what is pending and of the session's markers, and counted with a message
// naming its row; the others are still applied.
func TestMarkers_DamagedRowsSkippedAndCounted(t *testing.T) {
	url := pgtest.DB(t)
	s := openTemp(t, url)
	defer s.Close()
	ctx := context.Background()
	a, b, c := foundMarker("s", 1, "T001"), foundMarker("s", 2, "T002"), foundMarker("s", 3, "T003")
	if err := s.Commit(ctx, tally.Batch{Markers: []tally.FoundMarker{a, b, c}}); err != nil {
		t.Fatal(err)
	}
	exec(t, url, `UPDATE plan_markers SET marker = '{"task": 7}' WHERE key = $1`, a.Key)
	exec(t, url, `UPDATE plan_markers SET verdict = 'maybe' WHERE key = $1`, b.Key)
	if got := pendingKeys(t, s); !slices.Equal(got, []string{c.Key}) {
		t.Errorf("pending with %s damaged and %s of no known verdict: %v, want %s alone", a.Key, b.Key, got, c.Key)
	}
	states, err := s.SessionMarkers(ctx, "s")
	if err != nil || len(states) != 1 || states[0].Key != c.Key {
		t.Errorf("SessionMarkers = %+v, %v; want %s alone and no error", states, err, c.Key)
	}
	n, diags := s.Skipped()
	if n != 3 || !strings.Contains(diags[0].Msg, fmt.Sprintf("plan_markers row %q", a.Key)) {
		t.Errorf("Skipped = %d, %+v; want 3 (the damaged JSON twice, the verdict once), the first naming row %s", n, diags, a.Key)
	}
}

// TestMarkers_KeyTwiceInOneBatchRecordedOnce: a line read twice before one
// commit (a file and its replacement in one round) gives one row, the
// first.
func TestMarkers_KeyTwiceInOneBatchRecordedOnce(t *testing.T) {
	s := openTemp(t, pgtest.DB(t))
	defer s.Close()
	ctx := context.Background()
	m := foundMarker("s", 1, "T001")
	again := m
	again.Project = "/elsewhere"
	if err := s.Commit(ctx, tally.Batch{Markers: []tally.FoundMarker{m, again}}); err != nil {
		t.Fatal(err)
	}
	ms, err := s.PendingMarkers(ctx, 10)
	if err != nil || len(ms) != 1 || ms[0].Project != m.Project {
		t.Fatalf("pending %+v, %v; want one marker of project %s", ms, err, m.Project)
	}
}

// TestMarkers_UnstorableKeyFailsTheBatch: a key PostgreSQL text cannot
// hold fails the commit as invalid, and nothing of the batch is written.
func TestMarkers_UnstorableKeyFailsTheBatch(t *testing.T) {
	s := openTemp(t, pgtest.DB(t))
	defer s.Close()
	ctx := context.Background()
	bad := foundMarker("s", 1, "T001")
	bad.Key = "s:1:\x00"
	b := tally.Batch{
		Files:   []*tally.FileState{{Path: "/logs/s.jsonl", Session: "s", Offset: 10}},
		Markers: []tally.FoundMarker{foundMarker("s", 2, "T002"), bad},
	}
	if err := s.Commit(ctx, b); tally.ErrorCode(err) != tally.CodeInvalid || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("commit of a key with NUL: %v, want invalid, nothing written", err)
	}
	if got := pendingKeys(t, s); len(got) != 0 {
		t.Errorf("pending after the failed batch: %v", got)
	}
	if _, err := s.File(ctx, "/logs/s.jsonl"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("the failed batch's file was saved: %v", err)
	}
	if err := s.SettleMarkers(ctx, []tally.MarkerResult{{Key: bad.Key, Verdict: tally.MarkerApplied}}); err != nil {
		t.Errorf("settling a key no row can hold: %v, want nothing to do", err)
	}
}

// TestMarkers_ResultWithoutTimeReadsBackZero: a result that does not say
// when it was settled reads back without a time, not as the year 1677.
func TestMarkers_ResultWithoutTimeReadsBackZero(t *testing.T) {
	s := openTemp(t, pgtest.DB(t))
	defer s.Close()
	ctx := context.Background()
	m := foundMarker("s", 1, "T001")
	if err := s.Commit(ctx, tally.Batch{Markers: []tally.FoundMarker{m}}); err != nil {
		t.Fatal(err)
	}
	if err := s.SettleMarkers(ctx, []tally.MarkerResult{{Key: m.Key, Verdict: tally.MarkerNoPlan, Reason: "no plan folder"}}); err != nil {
		t.Fatal(err)
	}
	states, err := s.SessionMarkers(ctx, "s")
	if err != nil || len(states) != 1 {
		t.Fatalf("SessionMarkers = %+v, %v", states, err)
	}
	if r := states[0].Result; r.Verdict != tally.MarkerNoPlan || r.Reason != "no plan folder" || !r.At.IsZero() {
		t.Errorf("result %+v, want no_plan, its reason and no time", r)
	}
}

// TestMarkers_ReplicasSettlingOverlappingKeysAtOnce: two replicas settle
// the same markers at once, listed in opposite orders; neither waits on
// the other in a cycle (PostgreSQL would abort one as a deadlock), every
// marker is settled once, with the result of whichever replica came first.
func TestMarkers_ReplicasSettlingOverlappingKeysAtOnce(t *testing.T) {
	url := pgtest.DB(t)
	a, b := openTemp(t, url), openTemp(t, url)
	defer a.Close()
	defer b.Close()
	ctx := context.Background()
	var ms []tally.FoundMarker
	for i := range 200 {
		ms = append(ms, foundMarker("s", int64(i), "T001"))
	}
	if err := a.Commit(ctx, tally.Batch{Markers: ms}); err != nil {
		t.Fatal(err)
	}
	results := func(v tally.MarkerVerdict, reverse bool) []tally.MarkerResult {
		var rs []tally.MarkerResult
		for _, m := range ms {
			rs = append(rs, tally.MarkerResult{Key: m.Key, Verdict: v, Reason: v.String(), At: markerAt})
		}
		if reverse {
			slices.Reverse(rs)
		}
		return rs
	}
	for round := range 5 {
		exec(t, url, `UPDATE plan_markers SET verdict = 'pending', reason = '', settled_at = NULL`)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		wg.Go(func() { errs[0] = a.SettleMarkers(ctx, results(tally.MarkerApplied, false)) })
		wg.Go(func() { errs[1] = b.SettleMarkers(ctx, results(tally.MarkerUnchanged, true)) })
		wg.Wait()
		if err := errors.Join(errs...); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		states, err := b.SessionMarkers(ctx, "s")
		if err != nil || len(states) != len(ms) {
			t.Fatalf("round %d: %d markers, %v", round, len(states), err)
		}
		for _, st := range states {
			r := st.Result
			if (r.Verdict != tally.MarkerApplied && r.Verdict != tally.MarkerUnchanged) || r.Reason != r.Verdict.String() {
				t.Fatalf("round %d: %s settled as %+v, want one replica's whole result", round, st.Key, r)
			}
		}
	}
}
