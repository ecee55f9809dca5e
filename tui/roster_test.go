package tui

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
)

// TestRoster_inPlaceUpdatesKeepTheOrderASortWouldGive: moving a changed
// session within the order gives the order a full sort gives, under any
// filter and sort.
func TestRoster_inPlaceUpdatesKeepTheOrderASortWouldGive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		r := newRoster()
		r.load(manyRecords(300), fixedNow)
		r.setSort(SortOrder(round % int(numSorts)))
		if round%3 == 0 {
			r.setFilter(Filter{Agent: codex.Agent})
		}
		r.rows()
		for range 20 {
			var up []tally.Record
			var rm []string
			for range rng.IntN(4) {
				rec := limiter()
				rec.ID = fmt.Sprintf("session-%05d", rng.IntN(400))
				rec.Agent = []tally.Agent{claude.Agent, codex.Agent}[rng.IntN(2)]
				rec.LastActivity = fixedNow.Add(-time.Duration(rng.IntN(120)) * time.Minute)
				rec.Signal = tally.Signal(rng.IntN(4))
				up = append(up, rec)
			}
			if rng.IntN(3) == 0 {
				rm = append(rm, fmt.Sprintf("session-%05d", rng.IntN(400)))
			}
			r.update(up, rm, fixedNow)
			got := slices.Clone(r.rows())
			gotActive := r.active
			r.dirty = true
			want := r.rows()
			if !slices.Equal(got, want) || gotActive != r.active {
				t.Fatalf("round %d: in place %d rows (%d active), sorted %d rows (%d active)", round, len(got), gotActive, len(want), r.active)
			}
		}
	}
}
