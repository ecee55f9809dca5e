package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/web"
)

// BenchmarkAppendToSSE measures what a user sees: a line appended to a
// live Claude Code transcript, until every connected page has parsed the
// event it caused. The whole path runs for real: file-system notification,
// read, fold, SQLite commit, publish, hub, HTTP on loopback. Reported:
// p50/p99 over every client's receipt, p99 of the last receipt of each
// append (fan-out complete), and the memory the connected clients cost
// (heap and RSS of the process, client side included).
func BenchmarkAppendToSSE(b *testing.B) {
	for _, n := range []int{1, 1000} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) { benchAppend(b, n) })
	}
}

type receipt struct {
	lines int64
	at    time.Time
}

func benchAppend(b *testing.B, n int) {
	src, err := os.ReadFile(capturePath(b, "todowrite"))
	if err != nil {
		b.Fatal(err)
	}
	lines := bytes.SplitAfter(src, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	home := b.TempDir()
	dir := filepath.Join(home, "projects", "-tmp-capture-cc-todowrite-work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, todowriteID+".jsonl")
	const head = 10
	if err := os.WriteFile(path, bytes.Join(lines[:head], nil), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tally.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
	if err != nil {
		b.Fatal(err)
	}
	srv := web.New(web.Options{Indexer: ix, Store: st})
	go ix.Run(ctx)
	go srv.Run(ctx)
	<-ix.Ready()
	hs := httptest.NewServer(srv.Handler())
	defer func() {
		cancel() // the hub ends the streams, so Close need not wait for them
		hs.Close()
	}()
	addr := strings.TrimPrefix(hs.URL, "http://")

	heap0, rss0 := memory()
	got := make(chan receipt, 4*n)
	var start int64
	for range n {
		c := dialSSE(b, addr)
		snap := snapshotOf(b, c.mustNext(b))
		if len(snap) != 1 {
			b.Fatalf("snapshot of %d sessions", len(snap))
		}
		start = snap[0].Stats.Lines
		go func() {
			for {
				ev, err := c.next()
				if err != nil {
					return
				}
				var s struct {
					Stats struct{ Lines int64 } `json:"stats"`
				}
				if json.Unmarshal([]byte(ev.Data), &s) == nil {
					got <- receipt{lines: s.Stats.Lines, at: time.Now()}
				}
			}
		}()
	}
	heap1, rss1 := memory()

	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var all, last []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		want := start + int64(i) + 1
		t0 := time.Now()
		if _, err := f.Write(lines[head+i%(len(lines)-head)]); err != nil {
			b.Fatal(err)
		}
		var slowest time.Duration
		for seen := 0; seen < n; {
			select {
			case r := <-got:
				if r.lines != want {
					continue // an activity refresh, not this line
				}
				d := r.at.Sub(t0)
				all = append(all, d)
				slowest = max(slowest, d)
				seen++
			case <-time.After(10 * time.Second):
				b.Fatalf("append %d: %d of %d clients heard of it", i, seen, n)
			}
		}
		last = append(last, slowest)
	}
	b.StopTimer()
	b.ReportMetric(ms(quantile(all, 0.50)), "p50-ms")
	b.ReportMetric(ms(quantile(all, 0.99)), "p99-ms")
	b.ReportMetric(ms(quantile(last, 0.99)), "fanout-p99-ms")
	b.ReportMetric(float64(int64(heap1)-int64(heap0))/1024/float64(n), "heap-KB/client")
	b.ReportMetric(float64(rss1)/(1<<20), "rss-MB")
	b.ReportMetric(float64(int64(rss1)-int64(rss0))/(1<<20), "rss-delta-MB")
	if st := srv.Stats(); st.Drops != 0 {
		b.Errorf("%d clients dropped", st.Drops)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(int(q*float64(len(s))), len(s)-1)]
}

// memory is the live heap after a collection and the process's RSS.
func memory() (heap, rss uint64) {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	data, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			rss = kb << 10
		}
	}
	return m.HeapAlloc, rss
}
