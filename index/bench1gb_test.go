package index_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// bigCorpusEnv opts in to BenchmarkColdScan1GB: "1" builds its history in
// a temporary folder, removed when the benchmarks end; a directory's path
// builds it there once and keeps it for the next run.
const bigCorpusEnv = "TALLY_BENCH_1GB"

const (
	bigFiles = 800
	bigTotal = 1 << 30
)

var big struct {
	once   sync.Once
	tmp    string // removed by TestMain
	corpus corpus
	bin    string
	err    string
}

// bigCorpus is the 1 GB history, built once per run.
func bigCorpus(b *testing.B) (corpus, string) {
	dir := os.Getenv(bigCorpusEnv)
	if dir == "" {
		b.Skip("set " + bigCorpusEnv + "=1 (a temporary folder) or =<dir> (kept for the next run) to build a 1 GB history and scan it")
	}
	big.once.Do(func() {
		tmp, err := os.MkdirTemp("", "tally-bench-1gb-")
		if err != nil {
			big.err = err.Error()
			return
		}
		big.tmp = tmp
		if dir == "1" {
			dir = filepath.Join(tmp, "claude")
		}
		big.corpus = corpusIn(b, dir, bigFiles, bigTotal)
		big.bin = filepath.Join(tmp, "tally")
		build := exec.Command("go", "build", "-o", big.bin, "../cmd/tally")
		if out, err := build.CombinedOutput(); err != nil {
			big.err = "building tally: " + err.Error() + "\n" + string(out)
		}
	})
	if big.err != "" {
		b.Fatal(big.err)
	}
	return big.corpus, big.bin
}

// removeBigCorpus removes what bigCorpus built in a temporary folder.
func removeBigCorpus() {
	if big.tmp != "" {
		os.RemoveAll(big.tmp)
	}
}

// BenchmarkColdScan1GB measures a cold scan of a 1 GB Claude-like history
// (800 sessions, see buildCorpus) beside cat reading the same files in the
// same run, page cache warm: the target is at most 2x cat's wall time,
// with markers, fingerprints and detection on as they always are.
//
//   - binary: `tally scan` as a user runs it, a fresh process on a fresh
//     database each time (its wall time, CPU and peak RSS), the history's
//     sessions all over by the clock;
//   - in-process: the indexer on the same files with the clock at the
//     history's end, so its last sessions are live and their tool calls
//     fingerprinted; -cpuprofile profiles this one.
//
// Reported: x-cat (scan wall / cat wall), cpu-s/GB (user+system, the
// steadier figure on a shared machine), never-parsed-% (the lines the
// prefilter spared the parser), and for the binary RSS-MiB.
//
//	TALLY_BENCH_1GB=1 go test -run '^$' -bench ColdScan1GB -benchtime 5x ./index
func BenchmarkColdScan1GB(b *testing.B) {
	c, bin := bigCorpus(b)
	c.warm(b)
	gb := float64(c.bytes) / (1 << 30)
	b.Run("binary", func(b *testing.B) {
		b.SetBytes(c.bytes)
		var m scanMeter
		var rss int64
		for b.Loop() {
			m.readCat(b, c)
			dir := b.TempDir()
			cmd := exec.Command(bin, "scan", "--json", "--claude-dir", c.home)
			cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + dir, "XDG_STATE_HOME=" + dir, "XDG_DATA_HOME=" + dir,
				"XDG_CACHE_HOME=" + dir, "TALLY_DB=" + filepath.Join(dir, "tally.db"), "PATH=" + os.Getenv("PATH")}
			var out bytes.Buffer
			cmd.Stdout = &out
			t0 := time.Now()
			if err := cmd.Run(); err != nil {
				b.Fatalf("tally scan: %v\n%s", err, out.String())
			}
			m.scan += time.Since(t0)
			m.cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rss = max(rss, ru.Maxrss<<10)
			}
			var sum struct{ Lines, Parsed, Bytes int64 }
			if err := json.Unmarshal(out.Bytes(), &sum); err != nil || sum.Bytes != c.bytes {
				b.Fatalf("scanned %d bytes of %d (%v): %s", sum.Bytes, c.bytes, err, out.String())
			}
			m.lines, m.parsed = sum.Lines, sum.Parsed
		}
		m.report(b, gb)
		b.ReportMetric(float64(rss)/(1<<20), "RSS-MiB")
	})
	b.Run("in-process", func(b *testing.B) {
		b.SetBytes(c.bytes)
		var m scanMeter
		now := func() time.Time { return corpusEnd.Add(time.Minute) }
		for b.Loop() {
			m.readCat(b, c)
			ctx := context.Background()
			st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "tally.db"))
			if err != nil {
				b.Fatal(err)
			}
			ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: c.home})}, Store: st, Now: now})
			if err != nil {
				b.Fatal(err)
			}
			t0, c0 := time.Now(), cpuTime()
			sum, err := ix.Scan(ctx)
			if err != nil {
				b.Fatal(err)
			}
			m.cpu += cpuTime() - c0
			m.scan += time.Since(t0)
			st.Close()
			if sum.Bytes != c.bytes {
				b.Fatalf("scanned %d bytes of %d", sum.Bytes, c.bytes)
			}
			m.lines, m.parsed = sum.Lines, sum.Parsed
		}
		m.report(b, gb)
	})
}

// scanMeter adds up a benchmark's scans and the cat runs beside them.
type scanMeter struct {
	scan, cat, cpu time.Duration
	lines, parsed  int64
}

// readCat reads c's files as `cat` does, into /dev/null.
func (m *scanMeter) readCat(b *testing.B, c corpus) {
	t0 := time.Now()
	if err := exec.Command("cat", c.paths...).Run(); err != nil {
		b.Fatal(err)
	}
	m.cat += time.Since(t0)
}

func (m *scanMeter) report(b *testing.B, gb float64) {
	n := float64(b.N)
	b.ReportMetric(m.scan.Seconds()/m.cat.Seconds(), "x-cat")
	b.ReportMetric(m.cpu.Seconds()/n/gb, "cpu-s/GB")
	b.ReportMetric(m.cat.Seconds()/n*1000, "cat-ms")
	b.ReportMetric(m.scan.Seconds()/n*1000, "scan-ms")
	if m.lines > 0 {
		b.ReportMetric(100*float64(m.lines-m.parsed)/float64(m.lines), "never-parsed-%")
	}
}
