package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	domain "github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/internal/servetest"
	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// BenchmarkReplicas_ChangeToOtherBoard: one op is a change made through
// replica A (an MCP call that renames task #1) until it arrives on a board
// (an SSE client) of replica B. Reports the p50 and p99 of that delay,
// measured from the moment the call is sent.
func BenchmarkReplicas_ChangeToOtherBoard(b *testing.B) {
	url := pgtest.DB(b)
	a := servetest.Start(b, tallyBin, url)
	r := servetest.Start(b, tallyBin, url)
	cs := mcpClient(b, a.URL)
	call := func(name string, args map[string]any) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		args["list"] = teamList
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil || res.IsError {
			b.Fatalf("%s: %v %v", name, err, res)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream, err := servetest.Dial(ctx, r.URL, "")
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
			if ev.Type != "session_updated" {
				continue
			}
			var s sessionJSON
			if json.Unmarshal(ev.Data, &s) == nil && s.ID == "tally:"+teamList && len(s.Items) > 0 {
				titles <- s.Items[0].Title
			}
		}
	}()
	await := func(want string) { awaitTitle(b, titles, want) }
	call("TaskCreate", map[string]any{"subject": "v0", "description": "d"})
	await("v0")
	var delays []time.Duration
	i := 0
	for b.Loop() {
		i++
		want := fmt.Sprintf("v%d", i)
		start := time.Now()
		call("TaskUpdate", map[string]any{"taskId": "1", "subject": want})
		await(want)
		delays = append(delays, time.Since(start))
	}
	reportDelays(b, delays)
}

// awaitTitle waits until replica B's board, whose task titles come on
// titles, shows want.
func awaitTitle(b *testing.B, titles <-chan string, want string) {
	b.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case got, ok := <-titles:
			if !ok {
				b.Fatal("B's stream ended")
			}
			if got == want {
				return
			}
		case <-timeout:
			b.Fatalf("%q never reached replica B's board", want)
		}
	}
}

// reportDelays reports the median and 99th percentile of delays.
func reportDelays(b *testing.B, delays []time.Duration) {
	sort.Slice(delays, func(i, j int) bool { return delays[i] < delays[j] })
	pct := func(p float64) float64 {
		return float64(delays[min(len(delays)-1, int(p*float64(len(delays))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// BenchmarkReplica_RSS: a replica's memory follows the sessions going on,
// not the team's history. It starts one replica on a database holding
// 10,000 ended sessions and 50 live ones, pushed from 20 machines, opens a board and lists the
// sessions, then reports its resident memory; beside it, the same on a
// database holding only the 50 live ones.
func BenchmarkReplica_RSS(b *testing.B) {
	for _, ended := range []int{0, 10_000} {
		b.Run(fmt.Sprintf("ended-%d", ended), func(b *testing.B) {
			url := pgtest.DB(b)
			seedSessions(b, url, ended, 50)
			var rss, peak int64
			for b.Loop() {
				r := servetest.Start(b, tallyBin, url)
				ctx, cancel := context.WithCancel(context.Background())
				s, err := servetest.Dial(ctx, r.URL, "")
				if err != nil {
					b.Fatal(err)
				}
				if ev, err := s.Next(); err != nil || ev.Type != "snapshot" {
					b.Fatalf("first event %v, %v", ev.Type, err)
				}
				resp, err := http.Get(r.URL + "api/sessions")
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
				if rss, peak, err = r.RSS(); err != nil {
					b.Fatal(err)
				}
				s.Close()
				cancel()
				r.Stop()
			}
			b.ReportMetric(float64(rss)/(1<<20), "RSS-MiB")
			b.ReportMetric(float64(peak)/(1<<20), "peak-RSS-MiB")
		})
	}
}

// seedSessions pushes ended sessions whose last activity is days old and
// live ones active now, each with a five-item list, from 20 machines as
// tally push sends them: a team's history.
func seedSessions(tb testing.TB, url string, ended, live int) {
	tb.Helper()
	ctx := context.Background()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		tb.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	const machines = 20
	batches := make([]domain.PushBatch, machines)
	for m := range batches {
		batches[m] = domain.PushBatch{Machine: fmt.Sprint("dev-", m), User: fmt.Sprint("user-", m), Stream: "seed"}
	}
	flush := func(m int) {
		b := &batches[m]
		b.To = b.From + int64(len(b.Sessions))
		if _, err := st.Ingest(ctx, *b); err != nil {
			tb.Fatal(err)
		}
		b.From, b.Sessions = b.To, nil
	}
	for i := range ended + live {
		last := now.Add(-72*time.Hour - time.Duration(i)*time.Minute)
		if i >= ended {
			last = now.Add(-time.Duration(i-ended) * time.Second)
		}
		items := make([]domain.Item, 5)
		for j := range items {
			items[j] = domain.Item{Title: fmt.Sprintf("Step %d of the plan for session %d", j, i),
				ActiveForm: fmt.Sprintf("Doing step %d", j), Status: domain.Status(1 + j%3)}
		}
		m := i % machines
		batches[m].Sessions = append(batches[m].Sessions, domain.Record{
			ID: fmt.Sprintf("0195a1b2-%04x-7e8f-9a0b-%012x", i, i), Agent: claude.Agent,
			Project: fmt.Sprintf("/home/dev%d/src/p%d", i%7, i%20), Title: fmt.Sprintf("Session %d", i),
			StartedAt: last.Add(-time.Hour), LastActivity: last, Signal: domain.SignalWorking,
			Lists: map[string][]domain.Item{"": items},
		})
		if len(batches[m].Sessions) == 500 {
			flush(m)
		}
	}
	for m := range batches {
		flush(m)
	}
}
