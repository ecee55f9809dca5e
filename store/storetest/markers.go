package storetest

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// RunMarkers checks the progress-marker half of a store: open must return
// a tally.MarkerStore.
func RunMarkers(t *testing.T, open Opener) {
	t.Run("markers are pending from the commit that saved their lines", func(t *testing.T) { testMarkersPending(t, open) })
	t.Run("a key is recorded once; a result is settled once", func(t *testing.T) { testMarkersOnce(t, open) })
	t.Run("a failed batch records no marker", func(t *testing.T) { testMarkersAtomic(t, open) })
}

// RunSharedMarkers checks markers through several handles on one
// database, as several Tally processes folding the same logs.
func RunSharedMarkers(t *testing.T, db Database) {
	t.Run("two processes reading one line record one marker and one result", func(t *testing.T) { testMarkersShared(t, db) })
}

func openMarkers(t *testing.T, open Opener) (tally.Store, tally.MarkerStore) {
	t.Helper()
	s := openFull(t, open)
	return s, s
}

var markerT0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

func found(session string, off int64, index int, at time.Time, task, step, verb string) tally.FoundMarker {
	return tally.FoundMarker{
		Key: tally.MarkerKey(session, "", off, index), Session: session, Project: "/work/" + session,
		Marker: tally.Marker{Task: task, Step: step, Verb: verb, Offset: off, Index: index, At: at},
	}
}

func pending(t *testing.T, ms tally.MarkerStore) []string {
	t.Helper()
	got, err := ms.PendingMarkers(context.Background(), 100)
	if err != nil {
		t.Fatalf("PendingMarkers: %v", err)
	}
	var keys []string
	for _, m := range got {
		keys = append(keys, m.Key)
	}
	return keys
}

func testMarkersPending(t *testing.T, open Opener) {
	s, ms := openMarkers(t, open)
	st := fullFile("/logs/b.jsonl", "b", 1)
	b1 := found("b", 300, 0, markerT0.Add(2*time.Second), "T001", "S1", "done")
	a1 := found("a", 100, 0, markerT0.Add(time.Second), "T001", "", "start")
	a2 := found("a", 100, 1, markerT0.Add(time.Second), "T002", "", "blocked")
	a2.Marker.Reason = "waiting for review"
	commit(t, s, tally.Batch{Files: []*tally.FileState{st}, Markers: []tally.FoundMarker{b1, a1, a2}})
	// Oldest first, across sessions: the order to apply them in.
	if got := pending(t, ms); !slices.Equal(got, []string{a1.Key, a2.Key, b1.Key}) {
		t.Fatalf("pending %v", got)
	}
	all, err := ms.PendingMarkers(context.Background(), 2)
	if err != nil || len(all) != 2 {
		t.Fatalf("limit 2: %d, %v", len(all), err)
	}
	if all[1].Marker != a2.Marker || all[1].Project != "/work/a" || all[1].Session != "a" {
		t.Fatalf("read back %+v, want %+v", all[1], a2)
	}
	res := []tally.MarkerResult{{Key: a1.Key, Verdict: tally.MarkerApplied, Plan: "/work/a/docs/por", At: markerT0.Add(time.Minute)}}
	if err := ms.SettleMarkers(context.Background(), res); err != nil {
		t.Fatal(err)
	}
	if got := pending(t, ms); !slices.Equal(got, []string{a2.Key, b1.Key}) {
		t.Fatalf("pending after settling %s: %v", a1.Key, got)
	}
	states, err := ms.SessionMarkers(context.Background(), "a")
	if err != nil || len(states) != 2 {
		t.Fatalf("SessionMarkers: %+v, %v", states, err)
	}
	if r := states[0].Result; r.Verdict != tally.MarkerApplied || r.Plan != "/work/a/docs/por" || !r.At.Equal(markerT0.Add(time.Minute)) {
		t.Fatalf("result %+v", r)
	}
	if states[1].Result.Verdict != tally.MarkerPending || states[1].Marker.Reason != "waiting for review" {
		t.Fatalf("second marker %+v", states[1])
	}
}

func testMarkersOnce(t *testing.T, open Opener) {
	s, ms := openMarkers(t, open)
	ctx := context.Background()
	m := found("a", 100, 0, markerT0, "T001", "S1", "done")
	commit(t, s, tally.Batch{Markers: []tally.FoundMarker{m}})
	// The line read again (a rescan, a file replaced and read from 0):
	// the same key, perhaps with another project, records nothing new.
	again := m
	again.Project = "/elsewhere"
	commit(t, s, tally.Batch{Markers: []tally.FoundMarker{again}})
	if got := pending(t, ms); !slices.Equal(got, []string{m.Key}) {
		t.Fatalf("pending %v", got)
	}
	first := tally.MarkerResult{Key: m.Key, Verdict: tally.MarkerRejected, Reason: "no task T001 in the plan", At: markerT0}
	second := tally.MarkerResult{Key: m.Key, Verdict: tally.MarkerApplied, At: markerT0.Add(time.Second)}
	if err := ms.SettleMarkers(ctx, []tally.MarkerResult{first}); err != nil {
		t.Fatal(err)
	}
	if err := ms.SettleMarkers(ctx, []tally.MarkerResult{second}); err != nil {
		t.Fatal(err)
	}
	commit(t, s, tally.Batch{Markers: []tally.FoundMarker{m}})
	states, err := ms.SessionMarkers(ctx, "a")
	if err != nil || len(states) != 1 {
		t.Fatalf("SessionMarkers %+v, %v", states, err)
	}
	if r := states[0].Result; r.Verdict != tally.MarkerRejected || r.Reason != first.Reason || states[0].Project != "/work/a" {
		t.Fatalf("the first result must stand: %+v", states[0])
	}
	if got := pending(t, ms); len(got) != 0 {
		t.Fatalf("a settled marker read again is pending: %v", got)
	}
}

func testMarkersAtomic(t *testing.T, open Opener) {
	s, ms := openMarkers(t, open)
	bad := tally.Batch{
		Files:   []*tally.FileState{{Path: ""}},
		Markers: []tally.FoundMarker{found("a", 1, 0, markerT0, "T001", "", "start")},
	}
	if err := s.Commit(context.Background(), bad); err == nil {
		t.Fatal("a batch with a file without a path was committed")
	}
	noKey := tally.Batch{Markers: []tally.FoundMarker{{Session: "a"}}}
	if err := s.Commit(context.Background(), noKey); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Fatalf("a marker without a key: %v", err)
	}
	if got := pending(t, ms); len(got) != 0 {
		t.Fatalf("a failed batch left markers: %v", got)
	}
}

func testMarkersShared(t *testing.T, db Database) {
	open := db(t)
	a, b := openFull(t, open), openFull(t, open)
	ms := []tally.MarkerStore{a, b}
	ctx := context.Background()
	m := found("s", 500, 0, markerT0, "T001", "S1", "done")
	var wg sync.WaitGroup
	for i, s := range []tally.Store{a, b} {
		wg.Go(func() {
			if err := s.Commit(ctx, tally.Batch{Markers: []tally.FoundMarker{m}}); err != nil {
				t.Errorf("commit %d: %v", i, err)
			}
			if err := ms[i].SettleMarkers(ctx, []tally.MarkerResult{{Key: m.Key, Verdict: tally.MarkerApplied + tally.MarkerVerdict(i), At: markerT0}}); err != nil {
				t.Errorf("settle %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	states, err := ms[1].SessionMarkers(ctx, "s")
	if err != nil || len(states) != 1 || states[0].Result.Verdict == tally.MarkerPending {
		t.Fatalf("one marker, settled once: %+v, %v", states, err)
	}
}
