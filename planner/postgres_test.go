package planner_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

func openPostgres(t *testing.T, url string) *postgres.Store {
	t.Helper()
	st, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// Two `tally serve` replicas on one PostgreSQL database read the same log
// and apply its markers at the same moment, each with its own store
// handle: every marker is applied once. The plan's files and ledger are
// those one Tally alone writes, the news is told once between them, and
// the store records each marker once, applied, with nothing left pending.
func TestPlanner_twoReplicasOnPostgresApplyEachMarkerOnce(t *testing.T) {
	ctx := context.Background()
	// What one Tally alone makes of the capture's markers.
	alone := project(t)
	solo := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	var soloNews recorder
	p := newPlanner(solo, &soloNews)
	for _, round := range [][]tally.FoundMarker{found(t, alone)[:3], found(t, alone)[3:]} {
		commit(t, solo, round)
		if err := p.ApplyPending(ctx); err != nil {
			t.Fatal(err)
		}
	}

	dir := project(t)
	ms := found(t, dir)
	url := pgtest.DB(t)
	replicas := []*postgres.Store{openPostgres(t, url), openPostgres(t, url)}
	news := make([]recorder, len(replicas))
	var wg sync.WaitGroup
	for i, st := range replicas {
		p := newPlanner(st, &news[i])
		wg.Go(func() {
			// As each replica's indexer does: a round committed, then
			// applied; the log read on, the next round.
			for _, round := range [][]tally.FoundMarker{ms[:3], ms[3:]} {
				if err := st.Commit(ctx, tally.Batch{Markers: round}); err != nil {
					t.Errorf("replica %d commit: %v", i, err)
				}
				if err := p.ApplyPending(ctx); err != nil {
					t.Errorf("replica %d apply: %v", i, err)
				}
			}
		})
	}
	wg.Wait()

	for _, f := range []string{plan.LedgerFile, "T001-greeting-module/task.yaml", "T002-docs/task.yaml"} {
		want := readFile(t, filepath.Join(alone, "docs/por", f))
		want = strings.ReplaceAll(want, alone, dir)
		if got := readFile(t, filepath.Join(dir, "docs/por", f)); got != want {
			t.Errorf("%s written by two replicas:\n%s\nwant, as by one Tally:\n%s", f, got, want)
		}
	}
	var told []string
	for i := range news {
		if s := news[i].eventTexts(); s != "" {
			told = append(told, strings.Split(s, "\n")...)
		}
		if len(news[i].diags) != 0 {
			t.Errorf("replica %d: %+v", i, news[i].diags)
		}
	}
	// Each round's news comes from the replica that applied it.
	want := strings.Split(soloNews.eventTexts(), "\n")
	slices.Sort(told)
	slices.Sort(want)
	if !slices.Equal(told, want) {
		t.Errorf("news told by the replicas:\n%s\nwant each once:\n%s", strings.Join(told, "\n"), strings.Join(want, "\n"))
	}
	for i, st := range replicas {
		got := states(t, st)
		if len(got) != len(ms) {
			t.Errorf("replica %d sees %d markers, want %d", i, len(got), len(ms))
		}
		for key, v := range got {
			if v != tally.MarkerApplied {
				t.Errorf("replica %d: %s recorded %v, want applied", i, key, v)
			}
		}
		if pending, err := st.PendingMarkers(ctx, 10); err != nil || len(pending) != 0 {
			t.Errorf("replica %d: still pending %+v, %v", i, pending, err)
		}
	}
}
