package storetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// testConcurrentReaders rewrites every file and session in each commit,
// stamping them with the commit's generation, while readers list them: a
// reader must see one generation whole — never some rows of one commit and
// some of the next. Run it with -race.
func testConcurrentReaders(t *testing.T, open CoreOpener) {
	const (
		nFiles      = 40
		generations = 25
		readers     = 3
	)
	s := openStore(t, open)
	ctx := context.Background()
	batch := func(gen int) tally.Batch {
		var b tally.Batch
		for i := range nFiles {
			id := fmt.Sprintf("sess-%02d", i)
			b.Files = append(b.Files, fullFile(fmt.Sprintf("/logs/%02d.jsonl", i), id, gen))
			r := fullRecord(id, claude.Agent, "/p", at(i))
			r.Title = fmt.Sprint(gen)
			b.Sessions = append(b.Sessions, r)
		}
		return b
	}
	commit(t, s, batch(0))

	var done atomic.Bool
	var reads atomic.Int64
	var wg sync.WaitGroup
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !done.Load() {
				if err := checkOneGeneration(ctx, s, nFiles); err != nil {
					t.Error(err)
					return
				}
				reads.Add(1)
			}
		}()
	}
	for gen := 1; gen <= generations; gen++ {
		if err := s.Commit(ctx, batch(gen)); err != nil {
			t.Errorf("Commit(gen %d) while reading: %v", gen, err)
			break
		}
	}
	done.Store(true)
	wg.Wait()
	if err := checkOneGeneration(ctx, s, nFiles); err != nil {
		t.Error(err)
	}
	t.Logf("%d reads during %d commits", reads.Load(), generations)
}

func checkOneGeneration(ctx context.Context, s tally.Store, n int) error {
	fs, err := s.FileMarks(ctx)
	if err != nil {
		return fmt.Errorf("FileMarks during commits: %w", err)
	}
	if len(fs) != n {
		return fmt.Errorf("Files during commits: %d files, want %d", len(fs), n)
	}
	for _, f := range fs {
		if f.Offset != fs[0].Offset || !f.LastAt.Equal(fs[0].LastAt) {
			return fmt.Errorf("Files during commits: %s at offset %d, %s at %d: a commit was seen half done",
				fs[0].Path, fs[0].Offset, f.Path, f.Offset)
		}
	}
	recs, err := s.Records(ctx, tally.SessionFilter{})
	if err != nil {
		return fmt.Errorf("Records during commits: %w", err)
	}
	if len(recs) != n {
		return fmt.Errorf("Records during commits: %d records, want %d", len(recs), n)
	}
	for _, r := range recs {
		if r.Title != recs[0].Title {
			return fmt.Errorf("Records during commits: %s has generation %s, %s has %s: a commit was seen half done",
				recs[0].ID, recs[0].Title, r.ID, r.Title)
		}
	}
	if _, err := s.Record(ctx, "sess-07"); err != nil {
		return fmt.Errorf("Record during commits: %w", err)
	}
	return nil
}
