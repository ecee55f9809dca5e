package index_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// todoLine tells the lines a Claude decoder must parse: todo and task
// calls, their results, and 1.0.x sidechain lines.
func todoLine(l []byte) bool {
	for _, n := range []string{"TodoWrite", "TaskCreate", "TaskUpdate", "TaskList", `"isSidechain":true`, "toolUseResult"} {
		if bytes.Contains(l, []byte(n)) {
			return true
		}
	}
	return false
}

// history builds a Claude Code home of files sessions made of the real
// fixture lines, about perFile bytes each. With dense, every fixture line
// is used in turn: the scripted captures are almost all todo traffic, a
// worst case. Otherwise todo lines are one in todoEvery, the rest the
// fixtures' other lines (prompts, text, tool calls and results of Read,
// Bash, Write…), as in a working history.
func history(b *testing.B, files, perFile int, dense bool) (home string, total int64) {
	b.Helper()
	const todoEvery = 50
	var lines, todo, plain [][]byte
	srcs, _ := filepath.Glob("../testdata/fixtures/claude/*.jsonl")
	more, _ := filepath.Glob(captured + "*/config/projects/*/*.jsonl")
	for _, src := range append(srcs, more...) {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range bytes.SplitAfter(data, []byte("\n")) {
			if len(l) <= 1 {
				continue
			}
			lines = append(lines, l)
			if todoLine(l) {
				todo = append(todo, l)
			} else {
				plain = append(plain, l)
			}
		}
	}
	if !dense {
		lines = lines[:0]
		for i := range plain {
			if i%todoEvery == 0 {
				lines = append(lines, todo[(i/todoEvery)%len(todo)])
			}
			lines = append(lines, plain[i])
		}
	}
	home = b.TempDir()
	next := 0
	for i := range files {
		dir := filepath.Join(home, "projects", fmt.Sprintf("-home-me-src-p%d", i%40))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		var buf bytes.Buffer
		for buf.Len() < perFile {
			buf.Write(lines[next%len(lines)])
			next++
		}
		path := filepath.Join(dir, fmt.Sprintf("%08d-0000-4000-8000-000000000000.jsonl", i))
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			b.Fatal(err)
		}
		total += int64(buf.Len())
	}
	return home, total
}

// readAll is the floor a scan is measured against: reading every byte of
// every file, with as many goroutines as the scan uses.
func readAll(b *testing.B, home string) {
	paths, _ := filepath.Glob(filepath.Join(home, "projects", "*", "*.jsonl"))
	ch := make(chan string)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 1<<20)
			for p := range ch {
				f, err := os.Open(p)
				if err != nil {
					b.Error(err)
					continue
				}
				for {
					if _, err := f.Read(buf); err == io.EOF {
						break
					}
				}
				f.Close()
			}
		}()
	}
	for _, p := range paths {
		ch <- p
	}
	close(ch)
	wg.Wait()
}

func coldScan(b *testing.B, home string) index.Summary {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tally.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st, Workers: 2})
	if err != nil {
		b.Fatal(err)
	}
	sum, err := ix.Scan(ctx)
	if err != nil {
		b.Fatal(err)
	}
	return sum
}

// BenchmarkColdScan measures a whole cold scan (walk, read, prefilter,
// parse, fold, one store commit) of 300 files beside just reading them, in
// one run, and reports the ratio. Target: at most 2x.
func BenchmarkColdScan(b *testing.B) {
	b.Run("working-history", func(b *testing.B) { benchColdScan(b, false, false) })
	b.Run("dense-todo-captures", func(b *testing.B) { benchColdScan(b, true, false) })
	b.Run("working-history-with-task-lists", func(b *testing.B) { benchColdScan(b, false, true) })
}

// taskLists gives every other session of home a task list of its own, as
// Claude Code keeps one per session that used its Task tools, and adds ten
// lists shared by no session's id (CLAUDE_CODE_TASK_LIST_ID), holding the
// tasks the captures' transcripts create: the sessions without a list of
// their own are matched against them.
func taskLists(b *testing.B, home string) {
	b.Helper()
	src, _ := filepath.Glob(captured + "tasks-shared/config/tasks/greet-team/*.json")
	paths, _ := filepath.Glob(filepath.Join(home, "projects", "*", "*.jsonl"))
	write := func(dir string) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for _, p := range src {
			data, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, filepath.Base(p)), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for i, p := range paths {
		if i%2 == 0 {
			write(filepath.Join(home, "tasks", strings.TrimSuffix(filepath.Base(p), ".jsonl")))
		}
	}
	for i := range 10 {
		write(filepath.Join(home, "tasks", fmt.Sprintf("team-%d", i)))
	}
}

func benchColdScan(b *testing.B, dense, lists bool) {
	home, total := history(b, 300, 330<<10, dense)
	if lists {
		taskLists(b, home)
	}
	readAll(b, home) // page cache
	b.SetBytes(total)
	paths, _ := filepath.Glob(filepath.Join(home, "projects", "*", "*.jsonl"))
	var read, scan, cat, cpu time.Duration
	var sum index.Summary
	for b.Loop() {
		tc := time.Now()
		if err := exec.Command("cat", paths...).Run(); err != nil {
			b.Fatal(err)
		}
		cat += time.Since(tc)
		t0 := time.Now()
		readAll(b, home)
		t1 := time.Now()
		c1 := cpuTime()
		sum = coldScan(b, home)
		cpu += cpuTime() - c1
		scan += time.Since(t1)
		read += t1.Sub(t0)
		if sum.Bytes < total {
			b.Fatalf("scanned %d bytes of %d", sum.Bytes, total)
		}
	}
	b.ReportMetric(float64(total)/(read.Seconds()/float64(b.N))/1e6, "read-MB/s")
	b.ReportMetric(float64(total)/(scan.Seconds()/float64(b.N))/1e6, "scan-MB/s")
	b.ReportMetric(scan.Seconds()/read.Seconds(), "x-read")
	b.ReportMetric(float64(total)/(cat.Seconds()/float64(b.N))/1e6, "cat-MB/s")
	b.ReportMetric(scan.Seconds()/cat.Seconds(), "x-cat")
	// On a shared machine the CPU a scan takes (user+sys, all threads) is
	// steadier than its wall time.
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/scan")
	// The prefilter's promise: most lines are never parsed.
	b.ReportMetric(100*float64(sum.Lines-sum.Parsed)/float64(sum.Lines), "never-parsed-%")
}

// cpuTime is the user+sys time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkScanMemory scans 10,000 sessions and reports the peak Go heap
// during the scan and the heap kept after it: memory is to follow the
// sessions still going (none here: the history is old), not the history.
func BenchmarkScanMemory(b *testing.B) {
	home, total := history(b, 10000, 32<<10, false)
	b.SetBytes(total)
	for b.Loop() {
		var peak atomic.Uint64
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			var ms runtime.MemStats
			for {
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
				select {
				case <-stop:
					return
				case <-time.After(10 * time.Millisecond):
				}
			}
		}()
		ctx := context.Background()
		st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tally.db"))
		if err != nil {
			b.Fatal(err)
		}
		ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.Scan(ctx); err != nil {
			b.Fatal(err)
		}
		close(stop)
		<-done
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(peak.Load())/(1<<20), "peak-heap-MB")
		b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "kept-heap-MB")
		runtime.KeepAlive(ix)
		st.Close()
	}
}

// longSessionLines is how many lines the long session of
// BenchmarkIndexer_AppendOneLine holds.
const longSessionLines = 1_000_000

// todoCall is one Claude Code TodoWrite call, each with its own tool-call
// id, from a session that ended long ago.
func todoCall(i int) string {
	return fmt.Sprintf(`{"type":"assistant","sessionId":"5c0375b4-57a5-4f26-b12d-d022ee4e51b7","cwd":"/work/p","timestamp":"2025-09-07T09:52:09.443Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_%08d","name":"TodoWrite","input":{"todos":[{"content":"Step %d","status":"in_progress","activeForm":"Doing step %d"}]}}]}}`+"\n", i, i, i)
}

// BenchmarkIndexer_AppendOneLine measures what one line appended to a long
// session costs the indexer: the file holds a million TodoWrite calls, each
// with its own tool-call id, and the session is over, so its state is read
// back from the store for the append and dropped from memory after. An
// append is to cost what it appends, not what the file holds; state-KB is
// the size of the saved state.
func BenchmarkIndexer_AppendOneLine(b *testing.B) {
	home := b.TempDir()
	dir := filepath.Join(home, "projects", "-work-p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, "5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range longSessionLines {
		w.WriteString(todoCall(i))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tally.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := longSessionLines
	var cpu time.Duration
	for b.Loop() {
		c0 := cpuTime()
		line := todoCall(n)
		n++
		if _, err := f.WriteString(line); err != nil {
			b.Fatal(err)
		}
		sum, err := ix.Scan(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if sum.Bytes != int64(len(line)) {
			b.Fatalf("read %d bytes, want the %d appended", sum.Bytes, len(line))
		}
		cpu += cpuTime() - c0
	}
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	f.Close()
	saved, err := st.File(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	js, err := json.Marshal(saved)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(js))/1024, "state-KB")
}

// BenchmarkLive_ChangeToPublished measures the live path: from a write to
// an agent's file to the committed change reaching a subscriber, by
// notifications alone (no catch-up scan). A task file rewritten as Claude
// Code rewrites it (beside, then renamed over) is set against a line
// appended to a transcript.
func BenchmarkLive_ChangeToPublished(b *testing.B) {
	home := b.TempDir()
	const sid = "11111111-2222-4333-8444-555555555555"
	proj := filepath.Join(home, "projects", "p")
	list := filepath.Join(home, "tasks", sid)
	for _, d := range []string{proj, list} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	log := filepath.Join(proj, sid+".jsonl")
	line := `{"type":"user","timestamp":"2026-11-23T18:00:00Z","sessionId":"` + sid + `","message":{"role":"user","content":"go on"}}` + "\n"
	if err := os.WriteFile(log, []byte(line), 0o644); err != nil {
		b.Fatal(err)
	}
	task := func(status string) []byte {
		return []byte(`{"id":"1","subject":"Write tests","description":"","activeForm":"Writing tests","status":"` + status + `","blocks":[],"blockedBy":[]}`)
	}
	if err := os.WriteFile(filepath.Join(list, "1.json"), task("pending"), 0o644); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tally.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st, Rescan: time.Hour})
	if err != nil {
		b.Fatal(err)
	}
	sub := ix.Subscribe(1024)
	defer sub.Close()
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	<-ix.Ready()
	for drained := false; !drained; { // the first scan's changes
		select {
		case <-sub.C:
		case <-time.After(100 * time.Millisecond):
			drained = true
		}
	}
	wait := func(ok func(tally.Record) bool) {
		for {
			select {
			case c := <-sub.C:
				if c.ID == sid && ok(c.Record) {
					return
				}
			case <-time.After(10 * time.Second):
				b.Fatal("no change published")
			}
		}
	}
	b.Run("transcript-line", func(b *testing.B) {
		f, err := os.OpenFile(log, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		rec, err := st.Record(ctx, sid)
		if err != nil {
			b.Fatal(err)
		}
		lines := rec.Stats.Lines
		for b.Loop() {
			if _, err := f.WriteString(line); err != nil {
				b.Fatal(err)
			}
			lines++
			want := lines
			wait(func(r tally.Record) bool { return r.Stats.Lines == want })
		}
	})
	b.Run("task-file", func(b *testing.B) {
		statuses := []string{"in_progress", "completed", "pending"}
		i := 0
		for b.Loop() {
			s := statuses[i%len(statuses)]
			i++
			tmp := filepath.Join(list, "1.json.tmp.5f80f317")
			if err := os.WriteFile(tmp, task(s), 0o644); err != nil {
				b.Fatal(err)
			}
			if err := os.Rename(tmp, filepath.Join(list, "1.json")); err != nil {
				b.Fatal(err)
			}
			wait(func(r tally.Record) bool {
				items := r.Lists[""]
				return len(items) == 1 && items[0].Status.String() == s
			})
		}
	})
	cancel()
	<-done
}
