package index_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/tail"
)

// A fold outside a running indexer (a hook's) is the indexer's read and
// commit: committed, it saves what a scan of the same file saves — the
// offset, detection's state, the record's flags and stall time — and its
// markers wait pending for the planner, so an indexer that goes on from
// the committed offset misses none of them.
func TestFoldFile_CommitIsTheIndexersCommit(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	path, sid, lines := planLog(t, home)
	filler := []byte(`{"type":"progress","data":"` + strings.Repeat("x", 1000) + `"}` + "\n")
	data := bytes.Join(append(lines, bytes.Repeat(filler, 2<<10)), nil)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC) }
	ad := claude.New(claude.Options{ConfigDir: home})
	open := func() *sqlite.Store {
		st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}

	folded := open()
	found, ok := tail.Claim([]tally.Adapter{ad}, path)
	if !ok {
		t.Fatalf("%s is not claimed", path)
	}
	file, err := tail.Stat(path, false)
	if err != nil {
		t.Fatal(err)
	}
	o := index.Options{Adapters: []tally.Adapter{ad}, Store: folded, Now: now}
	f, err := index.FoldFile(o, found, nil, file)
	if err != nil {
		t.Fatal(err)
	}
	if f.Read != int64(len(data)) || f.State().Offset != int64(len(data)) {
		t.Fatalf("folded %d bytes to offset %d, want %d", f.Read, f.State().Offset, len(data))
	}
	if err := f.Commit(ctx); err != nil {
		t.Fatal(err)
	}

	scanned := open()
	var handed sink
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{ad}, Store: scanned, Now: now, Markers: &handed})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	got, _ := folded.File(ctx, path)
	want, _ := scanned.File(ctx, path)
	if got.Offset != want.Offset || len(want.Detect) == 0 || !bytes.Equal(got.Detect, want.Detect) {
		t.Errorf("the fold saved offset %d, detection %s; a scan, %d and %s", got.Offset, got.Detect, want.Offset, want.Detect)
	}
	rec, _ := folded.Record(ctx, sid)
	wrec, _ := scanned.Record(ctx, sid)
	if rec.Flags != wrec.Flags || !rec.StallAt.Equal(wrec.StallAt) || len(rec.Lists[""]) != len(wrec.Lists[""]) {
		t.Errorf("the fold's record: %+v\nthe scan's: %+v", rec, wrec)
	}
	pending, _ := folded.PendingMarkers(ctx, 100)
	scannedPending, _ := scanned.PendingMarkers(ctx, 100)
	if len(pending) != 6 || !slices.Equal(markerTexts(pending), markerTexts(scannedPending)) {
		t.Errorf("the fold's pending markers %v, the scan's %v", markerTexts(pending), markerTexts(scannedPending))
	}

	// An indexer over the fold's store goes on after it: nothing to read,
	// nothing handed over twice, the markers still pending.
	var after sink
	ix, err = index.New(ctx, index.Options{Adapters: []tally.Adapter{ad}, Store: folded, Now: now, Markers: &after})
	if err != nil {
		t.Fatal(err)
	}
	sum, err := ix.Scan(ctx)
	if err != nil || sum.Bytes != 0 {
		t.Fatalf("a scan after the fold read %d bytes, %v", sum.Bytes, err)
	}
	if pending, _ = folded.PendingMarkers(ctx, 100); len(pending) != 6 {
		t.Errorf("%d markers pending after the scan, want 6", len(pending))
	}
}
