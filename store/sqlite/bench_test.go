package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// benchBatch is n files, each with a five-item list, and their n records:
// the size of one commit of a cold scan of a large history.
func benchBatch(n int) tally.Batch {
	base := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	var b tally.Batch
	for i := range n {
		id := fmt.Sprintf("0195a1b2-%04x-7e8f-9a0b-%012x", i, i)
		items := make([]tally.Item, 5)
		for j := range items {
			items[j] = tally.Item{Title: fmt.Sprintf("Step %d of the plan for session %d", j, i),
				ActiveForm: fmt.Sprintf("Doing step %d", j), Status: tally.Status(1 + j%3)}
		}
		last := base.Add(time.Duration(i) * time.Second)
		b.Files = append(b.Files, &tally.FileState{
			Path: "/home/ana/.claude/projects/-home-ana-src/" + id + ".jsonl", Agent: claude.Agent, Session: id,
			Offset: int64(i) * 4096, Project: "/home/ana/src/p" + fmt.Sprint(i%20), LastAt: last, StartedAt: last.Add(-time.Hour),
			Lists:   map[string]*tally.List{"": {Todos: items, Seen: []string{"s:toolu_" + id}, UpdatedAt: last}},
			Decoder: []byte(`{"cwd":"/home/ana/src"}`),
			Stats:   tally.Stats{Bytes: int64(i) * 4096, Lines: 400, Parsed: 12},
		})
		b.Sessions = append(b.Sessions, tally.Merge([]*tally.FileState{b.Files[i]}))
	}
	return b
}

func BenchmarkCommit(b *testing.B) {
	s := openTemp(b, filepath.Join(b.TempDir(), "tally.db"))
	defer s.Close()
	batch := benchBatch(1000)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := s.Commit(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/2000, "µs/row")
}

func BenchmarkSessions(b *testing.B) {
	s := openTemp(b, filepath.Join(b.TempDir(), "tally.db"))
	defer s.Close()
	ctx := context.Background()
	batch := benchBatch(10000)
	if err := s.Commit(ctx, batch); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		f    tally.SessionFilter
		want int
	}{
		{"all-10000", tally.SessionFilter{}, 10000},
		{"limit-20", tally.SessionFilter{Limit: 20}, 20},
		{"agent-project-limit-20", tally.SessionFilter{Agent: claude.Agent, Project: "/p7", Limit: 20}, 20},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				recs, err := s.Records(ctx, bc.f)
				if err != nil || len(recs) != bc.want {
					b.Fatalf("Records: %d records, %v; want %d", len(recs), err, bc.want)
				}
			}
		})
	}
	b.Run("by-prefix", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Record(ctx, "0195a1b2-1a2b"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
