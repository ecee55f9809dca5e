package e2e

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	domain "github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/internal/testhome"
	"github.com/tallyhq/tally/store/sqlite"
)

// newestTitle is the title of the newest session of the benchmark's
// store: the first frame shows it at the top of the list.
const newestTitle = "Newest1"

// BenchmarkTUI_FirstFrame times the real binary from its start to its
// first frame on a pseudo-terminal (80×24), with 10,000 sessions in the
// store: the time a person waits after typing tally. Each run quits with
// q once the frame is there.
//
//   - warm: the agents' home (200 real captures) is already indexed, as it
//     is every time but the first.
//   - catch-up: the same home, none of it indexed yet (a copy of the
//     store made before its first scan), so the indexer has all of it to
//     read while the first frame is drawn.
//
// Reported: p50 and p99 in ms; cpu-ms, the process's CPU time (all
// threads) up to the first frame; init-ms, the package initialisation
// time GODEBUG=inittrace=1 reports.
//
//	go test -run '^$' -bench BenchmarkTUI_FirstFrame -benchtime 30x ./e2e
func BenchmarkTUI_FirstFrame(b *testing.B) {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	claudeDir := claudeHome(b, 200)
	fresh := filepath.Join(dir, "fresh.db")
	fillStore(b, fresh, 10_000)
	warm := filepath.Join(dir, "warm.db")
	copyStore(b, fresh, warm)
	env := testhome.Environ(home, "TERM=xterm-256color", "PATH=/usr/bin:/bin")
	scan := exec.Command(tallyBin, "scan", "--db", warm, "--claude-dir", claudeDir)
	scan.Env = env
	if out, err := scan.CombinedOutput(); err != nil {
		b.Fatalf("scan: %v\n%s", err, out)
	}
	args := func(db string) []string { return []string{"--db", db, "--claude-dir", claudeDir} }
	b.Run("warm", func(b *testing.B) {
		firstFrames(b, env, func() []string { return args(warm) })
	})
	b.Run("catch-up", func(b *testing.B) {
		db := filepath.Join(dir, "catchup.db")
		firstFrames(b, env, func() []string {
			for _, suffix := range []string{"", "-wal", "-shm"} {
				os.Remove(db + suffix)
			}
			copyStore(b, fresh, db)
			return args(db)
		})
	})
}

// firstFrames runs tally b.N times, each with the arguments prepare
// returns (called outside the timing), and reports the figures.
func firstFrames(b *testing.B, env []string, prepare func() []string) {
	var took, cpu []time.Duration
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		args := prepare()
		b.StartTimer()
		cmd := exec.Command(tallyBin, args...)
		cmd.Env = env
		start := time.Now()
		p := startPTY(b, cmd, 80, 24)
		at := p.waitText(b, newestTitle, 20*time.Second)
		took = append(took, at.Sub(start))
		cpu = append(cpu, cpuTime(cmd.Process.Pid))
		b.StopTimer()
		p.send(b, "q")
		if st := p.wait(b); !st.Success() {
			b.Fatalf("tally did not exit 0 after q: %v", st)
		}
		b.StartTimer()
	}
	b.StopTimer()
	report(b, took)
	slices.Sort(cpu)
	b.ReportMetric(ms(cpu[len(cpu)/2]), "cpu-ms")
	b.ReportMetric(initTime(b, env, prepare()), "init-ms")
}

// cpuTime is the CPU time every thread of process pid has used so far
// (the scheduler's count, in nanoseconds, where the clock-tick count of
// /proc/pid/stat is too coarse for a few milliseconds).
func cpuTime(pid int) time.Duration {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var total int64
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			total += n
		}
	}
	return time.Duration(total)
}

// initTime runs tally once with GODEBUG=inittrace=1 and sums the clock
// time of every package's initialisation; the slowest are logged.
func initTime(b *testing.B, env []string, args []string) float64 {
	var trace bytes.Buffer
	cmd := exec.Command(tallyBin, args...)
	cmd.Env = append(env, "GODEBUG=inittrace=1")
	cmd.Stderr = &trace
	p := startPTY(b, cmd, 80, 24)
	p.waitText(b, newestTitle, 20*time.Second)
	p.send(b, "q")
	p.wait(b)
	type pkg struct {
		name string
		ms   float64
	}
	var all []pkg
	total := 0.0
	sc := bufio.NewScanner(&trace)
	for sc.Scan() {
		// init modernc.org/libc @13 ms, 0.24 ms clock, 2320 bytes, 26 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[0] != "init" {
			continue
		}
		v, err := strconv.ParseFloat(f[4], 64)
		if err != nil {
			continue
		}
		total += v
		all = append(all, pkg{f[1], v})
	}
	slices.SortFunc(all, func(a, c pkg) int {
		switch {
		case a.ms > c.ms:
			return -1
		case a.ms < c.ms:
			return 1
		}
		return 0
	})
	var top []string
	for _, p := range all[:min(5, len(all))] {
		top = append(top, fmt.Sprintf("%s %.2f ms", p.name, p.ms))
	}
	b.Logf("init: %d packages, %.2f ms; slowest: %s", len(all), total, strings.Join(top, ", "))
	return total
}

// fillStore makes a SQLite store of n sessions like a long history: the
// newest a minute old and titled newestTitle, the rest older by a minute
// each.
func fillStore(b *testing.B, path string, n int) {
	b.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	agents := []domain.Agent{claude.Agent, codex.Agent, gemini.Agent, hermes.Agent}
	var batch []domain.Record
	for i := range n {
		title := fmt.Sprintf("Session %d of the long history", i)
		if i == 0 {
			title = newestTitle
		}
		at := now.Add(-time.Duration(i+1) * time.Minute)
		batch = append(batch, domain.Record{
			ID: fmt.Sprintf("%05d-bench-session", i), Agent: agents[i%len(agents)],
			Project: fmt.Sprintf("/work/p%d", i%40), Title: title, StartedAt: at.Add(-time.Hour), LastActivity: at,
			Signal: domain.SignalWorking,
			Lists: map[string][]domain.Item{"": {
				{ID: "1", Title: "Read the code", Status: domain.StatusCompleted},
				{ID: "2", Title: "Write the change", ActiveForm: "Writing the change", Status: domain.StatusInProgress},
				{ID: "3", Title: "Run the tests", Status: domain.StatusPending},
			}},
		})
		if len(batch) == 1000 || i == n-1 {
			if err := st.Commit(ctx, domain.Batch{Sessions: batch}); err != nil {
				b.Fatal(err)
			}
			batch = batch[:0]
		}
	}
}

func copyStore(b *testing.B, src, dst string) {
	b.Helper()
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkTUI_Idle is the CPU time the dashboard uses while nothing
// changes: after its catch-up, with no session working (so no spinner),
// for 5 s per run on a 10,000-session store. Reported: cpu-ms-per-s.
//
//	go test -run '^$' -bench BenchmarkTUI_Idle -benchtime 3x ./e2e
func BenchmarkTUI_Idle(b *testing.B) {
	dir := b.TempDir()
	home := filepath.Join(dir, "home")
	db := filepath.Join(dir, "tally.db")
	fillStore(b, db, 10_000)
	env := testhome.Environ(home, "TERM=xterm-256color", "PATH=/usr/bin:/bin")
	const window = 5 * time.Second
	var perSecond []float64
	for range b.N {
		cmd := exec.Command(tallyBin, "--db", db, "--claude-dir", filepath.Join(dir, "claude"))
		cmd.Env = env
		p := startPTY(b, cmd, 80, 24)
		p.waitText(b, newestTitle, 20*time.Second)
		time.Sleep(3 * time.Second) // the full read and the catch-up
		before := cpuTime(cmd.Process.Pid)
		time.Sleep(window)
		used := cpuTime(cmd.Process.Pid) - before
		perSecond = append(perSecond, ms(used)/window.Seconds())
		p.send(b, "q")
		p.wait(b)
	}
	slices.Sort(perSecond)
	b.ReportMetric(perSecond[len(perSecond)/2], "cpu-ms-per-s")
}
