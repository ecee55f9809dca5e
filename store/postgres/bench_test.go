package postgres

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// durableDB is a database on a server of its own that syncs to disk, as
// a team's server does: commit figures are those of a real deployment.
func durableDB(b *testing.B) string {
	b.Helper()
	pgtest.Shared(b) // skips, or fails under CI, without PostgreSQL
	srv, err := pgtest.Start(context.Background(), pgtest.Options{Durable: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { srv.Stop() })
	url, err := srv.CreateDB(context.Background(), "bench")
	if err != nil {
		b.Fatal(err)
	}
	return url
}

// benchBatch is n files, each with a five-item list, and their n records:
// the size of one commit of a cold scan of a large history, or of a push.
func benchBatch(n, gen int) tally.Batch {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var b tally.Batch
	for i := range n {
		id := fmt.Sprintf("0195a1b2-%04x-7e8f-9a0b-%012x", i, i)
		items := make([]tally.Item, 5)
		for j := range items {
			items[j] = tally.Item{Title: fmt.Sprintf("Step %d of the plan for session %d", j, i),
				ActiveForm: fmt.Sprintf("Doing step %d", j), Status: tally.Status(1 + (j+gen)%3)}
		}
		last := base.Add(time.Duration(i+gen) * time.Second)
		b.Files = append(b.Files, &tally.FileState{
			Path: "/home/ana/.claude/projects/-home-ana-src/" + id + ".jsonl", Agent: claude.Agent, Session: id,
			Offset: int64(i+gen) * 4096, Project: "/home/ana/src/p" + fmt.Sprint(i%20), LastAt: last, StartedAt: last.Add(-time.Hour),
			Lists:   map[string]*tally.List{"": {Todos: items, Seen: []string{"s:toolu_" + id}, UpdatedAt: last}},
			Decoder: []byte(`{"cwd":"/home/ana/src"}`),
			Stats:   tally.Stats{Bytes: int64(i) * 4096, Lines: 400, Parsed: 12},
		})
		b.Sessions = append(b.Sessions, tally.Merge([]*tally.FileState{b.Files[i]}))
	}
	return b
}

// BenchmarkCommit: batches of 1,000 files and their 1,000 records, each
// batch rewriting every row, on a server that syncs. Reports records
// committed per second.
func BenchmarkCommit(b *testing.B) {
	s := openTemp(b, durableDB(b))
	defer s.Close()
	ctx := context.Background()
	batches := [2]tally.Batch{benchBatch(1000, 0), benchBatch(1000, 1)}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if err := s.Commit(ctx, batches[n%2]); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n*1000)/b.Elapsed().Seconds(), "records/s")
}

// BenchmarkCommit_OneSession: the live case, one file and its record per
// commit (a line appended to one session), from two processes at once.
func BenchmarkCommit_OneSession(b *testing.B) {
	url := durableDB(b)
	stores := []*Store{openTemp(b, url), openTemp(b, url)}
	defer stores[0].Close()
	defer stores[1].Close()
	ctx := context.Background()
	one := benchBatch(2, 0)
	b.SetParallelism(1)
	b.ResetTimer()
	next := make(chan int, 2)
	next <- 0
	next <- 1
	b.RunParallel(func(pb *testing.PB) {
		k := <-next
		batch := tally.Batch{Files: one.Files[k : k+1], Sessions: one.Sessions[k : k+1]}
		for pb.Next() {
			if err := stores[k].Commit(ctx, batch); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "commits/s")
}

// BenchmarkMarkers_Round: the store's part of one planner round on a
// server that syncs: 100 new markers committed with their file, read back
// as pending, and settled. Reports markers per second through all three.
func BenchmarkMarkers_Round(b *testing.B) {
	s := openTemp(b, durableDB(b))
	defer s.Close()
	ctx := context.Background()
	file := benchBatch(1, 0).Files
	const round = 100
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		batch := tally.Batch{Files: file}
		for i := range round {
			off := int64(n*round + i)
			batch.Markers = append(batch.Markers, tally.FoundMarker{
				Key: tally.MarkerKey("s", "", off, 0), Session: "s", Project: "/home/ana/src/p",
				Marker: tally.Marker{Task: "T001", Step: "S1", Verb: "done", Offset: off, At: markerAt.Add(time.Duration(off))},
			})
		}
		if err := s.Commit(ctx, batch); err != nil {
			b.Fatal(err)
		}
		ms, err := s.PendingMarkers(ctx, 1024)
		if err != nil || len(ms) != round {
			b.Fatalf("%d pending, %v", len(ms), err)
		}
		results := make([]tally.MarkerResult, len(ms))
		for i, m := range ms {
			results[i] = tally.MarkerResult{Key: m.Key, Verdict: tally.MarkerApplied, Plan: "/home/ana/src/p/docs/por", At: markerAt}
		}
		if err := s.SettleMarkers(ctx, results); err != nil {
			b.Fatal(err)
		}
		n++
	}
	b.ReportMetric(float64(n*round)/b.Elapsed().Seconds(), "markers/s")
}
