package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	domain "github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/store/sqlite"
)

// durableDB is a database on a server that syncs to disk, as a team's
// does: ingest figures on a server that does not would flatter.
func durableDB(b *testing.B) string {
	b.Helper()
	pgtest.Shared(b) // skips or fails as every PostgreSQL test does when none is installed
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

// liveBatches folds a home of real captures the way a developer's machine
// does while its agents write: every session gets its log a few lines at
// a time, the local indexer commits each round, and what changed is read
// as tally push reads it. Each batch carries the changed lines its records
// stand for, counted as the pusher counts them.
func liveBatches(b *testing.B, sessions, linesPerRound int) (batches []domain.PushBatch, lines int64) {
	b.Helper()
	ctx := context.Background()
	home := newGrowingHome(b, sessions)
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "local.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []domain.Adapter{claude.New(claude.Options{ConfigDir: home.dir})}, Store: st})
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]int64{}
	var mark int64
	for more := true; ; {
		if _, err := ix.Scan(ctx); err != nil {
			b.Fatal(err)
		}
		recs, next, err := st.Changed(ctx, mark)
		if err != nil {
			b.Fatal(err)
		}
		if len(recs) > 0 {
			bt := domain.PushBatch{From: mark, To: next, Sessions: recs}
			for _, r := range recs {
				bt.Lines += r.Stats.Lines - seen[r.ID]
				seen[r.ID] = r.Stats.Lines
			}
			lines += bt.Lines
			batches = append(batches, bt)
		}
		mark = next
		if !more {
			break
		}
		more = home.grow(b, linesPerRound)
	}
	return batches, lines
}

// pushBody is a batch as tally push sends it.
func pushBody(tb testing.TB, bt domain.PushBatch) []byte {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	if err := json.NewEncoder(zw).Encode(bt); err != nil {
		tb.Fatal(err)
	}
	zw.Close()
	return buf.Bytes()
}

func postPush(tb testing.TB, base, token string, body []byte) domain.PushAck {
	req, _ := http.NewRequest(http.MethodPost, base+"api/push", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Encoding", "gzip")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	var ack domain.PushAck
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&ack) != nil {
		tb.Fatalf("push: %s", resp.Status)
	}
	return ack
}

// BenchmarkTeam_PushIngest: pushes to one replica on a PostgreSQL server
// that syncs. The history is that of sessions of real captures whose logs
// are written 10 lines a round, each round's changed records one batch, as
// tally push sends them while it keeps up; each pusher has one batch in
// flight, answered before the next. Sub-benchmarks: one machine; four
// machines pushing at once (a team); and one machine catching up after a
// cut, whose batches hold each session once, at its newest (up to 500).
// Reports changed lines, records and batches ingested per second, and the
// replica's processor time per 1,000 lines (which the machine's load
// changes less than the rates) and its peak memory.
func BenchmarkTeam_PushIngest(b *testing.B) {
	url := durableDB(b)
	live, _ := liveBatches(b, 40, 10)
	cases := []struct {
		name     string
		machines int
		batches  []domain.PushBatch
	}{
		{"live-1-machine", 1, live},
		{"live-4-machines", 4, live},
		{"catch-up-1-machine", 1, catchUp(live)},
	}
	// A push token speaks for one machine: one each.
	tokens := map[string]string{}
	machine := func(tc string, m int) string { return fmt.Sprint(tc, "-", m) }
	for _, tc := range cases {
		for m := range tc.machines {
			tokens[machine(tc.name, m)] = tokenFor(b, url, "push", "--machine", machine(tc.name, m))
		}
	}
	r := servetest.Start(b, tallyBin, url)
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			var lines, records int64
			for _, bt := range tc.batches {
				lines += bt.Lines
				records += int64(len(bt.Sessions))
			}
			i := 0
			var elapsed, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				i++
				bodies := make([][][]byte, tc.machines)
				for m := range bodies {
					for _, bt := range tc.batches {
						bt.Machine, bt.User, bt.Stream = machine(tc.name, m), "bench", fmt.Sprint("run-", i)
						bodies[m] = append(bodies[m], pushBody(b, bt))
					}
				}
				cpu0, _ := r.CPU()
				b.StartTimer()
				start := time.Now()
				var wg sync.WaitGroup
				for m := range bodies {
					wg.Add(1)
					go func() {
						defer wg.Done()
						for _, body := range bodies[m] {
							if ack := postPush(b, r.URL, tokens[machine(tc.name, m)], body); ack.Repeat || ack.Resend {
								b.Errorf("ack %+v", ack)
								return
							}
						}
					}()
				}
				wg.Wait()
				elapsed += time.Since(start)
				cpu1, _ := r.CPU()
				cpu += cpu1 - cpu0
			}
			n := float64(i * tc.machines)
			secs := elapsed.Seconds()
			b.ReportMetric(float64(lines)*n/secs, "lines/s")
			b.ReportMetric(float64(records)*n/secs, "records/s")
			b.ReportMetric(float64(len(tc.batches))*n/secs, "batches/s")
			b.ReportMetric(float64(cpu.Milliseconds())/(float64(lines)*n/1000), "replica-cpu-ms/1000-lines")
			if _, peak, err := r.RSS(); err == nil {
				b.ReportMetric(float64(peak)/(1<<20), "replica-peak-RSS-MiB")
			}
		})
	}
}

// catchUp is what a pusher sends of a live history when it was cut off
// for all of it: each session once, at its newest, with every line it
// grew by, up to 500 records a batch.
func catchUp(live []domain.PushBatch) []domain.PushBatch {
	newest := map[string]domain.Record{}
	var order []string
	var to int64
	for _, bt := range live {
		for _, r := range bt.Sessions {
			if _, ok := newest[r.ID]; !ok {
				order = append(order, r.ID)
			}
			newest[r.ID] = r
		}
		to = bt.To
	}
	var out []domain.PushBatch
	for start := 0; start < len(order); start += 500 {
		bt := domain.PushBatch{From: 0, To: to}
		for _, id := range order[start:min(start+500, len(order))] {
			bt.Sessions = append(bt.Sessions, newest[id])
			bt.Lines += newest[id].Stats.Lines
		}
		out = append(out, bt)
	}
	return out
}

// BenchmarkTeam_PushToOtherBoard: one op is a change pushed to replica A
// (one session's record, renamed, as tally push sends it) until it arrives
// on a board (an SSE client) of replica B. Reports the p50 and p99 of that
// delay, measured from the moment the push is sent.
func BenchmarkTeam_PushToOtherBoard(b *testing.B) {
	url := pgtest.DB(b)
	pushToken, readToken := tokenFor(b, url, "push", "--machine", "bench"), tokenFor(b, url, "read")
	a := servetest.Start(b, tallyBin, url)
	r := servetest.Start(b, tallyBin, url)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := servetest.DialToken(ctx, r.URL, "", readToken)
	if err != nil {
		b.Fatal(err)
	}
	defer stream.Close()
	titles := make(chan string, 1024)
	go func() {
		defer close(titles)
		for {
			ev, err := stream.Next()
			if err != nil {
				return
			}
			var s struct{ ID, Title string }
			if ev.Type == "session_updated" && json.Unmarshal(ev.Data, &s) == nil && s.ID == "bench-session" {
				titles <- s.Title
			}
		}
	}()
	rec := domain.Record{ID: "bench-session", Agent: claude.Agent, Project: "/home/dev/src/app",
		Lists: map[string][]domain.Item{"": {{ID: "1", Title: "Step", Status: domain.StatusInProgress, Source: domain.SourceTask}}}}
	var mark int64
	send := func(title string) time.Time {
		rec.Title, rec.LastActivity = title, time.Now()
		body := pushBody(b, domain.PushBatch{Machine: "bench", User: "bench", Stream: "s", From: mark, To: mark + 1, Lines: 1, Sessions: []domain.Record{rec}})
		start := time.Now()
		postPush(b, a.URL, pushToken, body)
		mark++
		return start
	}
	await := func(want string) { awaitTitle(b, titles, want) }
	send("v0")
	await("v0")
	var delays []time.Duration
	i := 0
	for b.Loop() {
		i++
		want := fmt.Sprintf("v%d", i)
		start := send(want)
		await(want)
		delays = append(delays, time.Since(start))
	}
	reportDelays(b, delays)
}
