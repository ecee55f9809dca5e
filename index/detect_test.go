package index_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/detect"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// loopCapture is a real Claude Code session that ran `ls` five times in a
// row (detect/testdata/claude-loop/README.md).
const loopCapture = "../detect/testdata/claude-loop/session.jsonl"

const loopSession = "c99f2168-0042-4056-b00b-467eac02758e"

// bashLines are the capture's lines that call Bash, and the time of each.
func bashLines(t *testing.T, data []byte) (lines [][]byte, times []time.Time) {
	t.Helper()
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if bytes.Contains(l, []byte(`"name":"Bash"`)) && bytes.Contains(l, []byte(`"role":"assistant"`)) {
			i := bytes.LastIndex(l, []byte(`"timestamp":"`)) + len(`"timestamp":"`)
			at, err := time.Parse(time.RFC3339Nano, string(l[i:i+24]))
			if err != nil {
				t.Fatal(err)
			}
			lines, times = append(lines, l), append(times, at)
		}
	}
	if len(lines) != 5 {
		t.Fatalf("%d Bash calls in the capture, want 5", len(lines))
	}
	return lines, times
}

func scanOnce(t *testing.T, home, db string, now time.Time) tally.Record {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})},
		Store: st, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Scan(ctx); err != nil {
		t.Fatal(err)
	}
	rec, err := st.Record(ctx, loopSession)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestIndexer_detectsTheRealLoop: indexed live, the capture is looping
// from its fourth ls on; the state is saved with the file, so an indexer
// started later goes on from it; read as history, long after, its calls
// are not even read and it is flagged for nothing but its list.
func TestIndexer_detectsTheRealLoop(t *testing.T) {
	data, err := os.ReadFile(loopCapture)
	if err != nil {
		t.Fatal(err)
	}
	bash, times := bashLines(t, data)
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-tmp-loop")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, loopSession+".jsonl")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	end := times[4].Add(time.Second)
	db := filepath.Join(t.TempDir(), "tally.db")

	rec := scanOnce(t, home, db, end.Add(time.Minute))
	f := rec.FlagsAt(end.Add(time.Minute))
	if !f.Has(tally.FlagLooping) || !f.Since(tally.FlagLooping).Equal(times[3]) {
		t.Fatalf("flags %v (looping since %v), want looping since the fourth ls at %v", f, f.Since(tally.FlagLooping), times[3])
	}
	if f.Has(tally.FlagStalled) || f.Has(tally.FlagFinished) {
		t.Errorf("flags %v: the turn ended with text and the list is open", f)
	}

	// Another process, later: the same call once more still loops since
	// the fourth ls, which only the saved state remembers.
	appendTo(t, path, bytes.Replace(bash[4], []byte(times[4].Format("2006-01-02T15:04:05.000Z")),
		[]byte(end.Add(2*time.Second).Format("2006-01-02T15:04:05.000Z")), 1))
	rec = scanOnce(t, home, db, end.Add(time.Minute))
	if f := rec.FlagsAt(end.Add(time.Minute)); !f.Since(tally.FlagLooping).Equal(times[3]) {
		t.Errorf("after a restart: looping since %v, want %v kept from before", f.Since(tally.FlagLooping), times[3])
	}

	// Read for the first time a day later, it is history.
	rec = scanOnce(t, home, filepath.Join(t.TempDir(), "tally.db"), end.Add(24*time.Hour))
	if f := rec.FlagsAt(end.Add(24 * time.Hour)); f.Has(tally.FlagLooping) {
		t.Errorf("history read a day later: flags %v, want no loop (its calls are not read)", f)
	}
}

// stamp is a transcript timestamp.
func stamp(at time.Time) string { return at.UTC().Format("2006-01-02T15:04:05.000Z") }

func toolUseLine(id, cmd string, at time.Time) []byte {
	return fmt.Appendf(nil, `{"parentUuid":"p","isSidechain":false,"message":{"id":"m%s","type":"message","role":"assistant","content":[{"type":"tool_use","id":"%s","name":"Bash","input":{"command":%q}}],"stop_reason":"tool_use"},"type":"assistant","uuid":"u%s","timestamp":"%s"}`+"\n",
		id, id, cmd, id, stamp(at))
}

func progressLine(at time.Time) []byte {
	return fmt.Appendf(nil, `{"type":"progress","data":{"type":"bash_progress","output":"ok"},"timestamp":"%s"}`+"\n", stamp(at))
}

func resultLine(id string, at time.Time) []byte {
	return fmt.Appendf(nil, `{"parentUuid":"p","isSidechain":false,"message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"ok"}]},"type":"user","timestamp":"%s"}`+"\n", id, stamp(at))
}

// TestIndexer_Run_stallIsPublishedWhenDue: while a command's output flows
// the session is not stalled; once it stops, the indexer publishes the
// session again at the moment it stalls, with nothing new in its log.
func TestIndexer_Run_stallIsPublishedWhenDue(t *testing.T) {
	const stalledAfter = 2 * time.Second // long enough that a loaded machine's pauses are not quiet
	l := startLiveWith(t, index.Options{Rescan: time.Hour, Detect: detect.Rules{StalledAfter: stalledAfter, EndedAfter: tally.EndedAfter, LoopRepeats: 4}})
	dir := filepath.Join(l.home, "projects", "-tmp-stall")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "stall.jsonl")
	appendTo(t, path, toolUseLine("t1", "go test ./...", time.Now()))
	for range 5 {
		time.Sleep(stalledAfter / 3)
		appendTo(t, path, progressLine(time.Now()))
		rec := l.waitFor("stall", "the progress line", func(r tally.Record) bool { return time.Since(r.LastActivity) < stalledAfter/3 })
		if f := rec.FlagsAt(time.Now()); f.Has(tally.FlagStalled) {
			t.Fatalf("stalled while its output flows: %v", f)
		}
	}
	quiet := time.Now()
	rec := l.waitFor("stall", "a change saying it stalled", func(r tally.Record) bool {
		return r.FlagsAt(time.Now()).Has(tally.FlagStalled)
	})
	if waited := time.Since(quiet); waited < stalledAfter/2 {
		t.Errorf("stalled after %v of quiet, want about %v", waited, stalledAfter)
	}
	if since := rec.FlagsAt(time.Now()).Since(tally.FlagStalled); !since.Equal(rec.StallAt) || since.Sub(rec.LastActivity) != stalledAfter {
		t.Errorf("stalled since %v, want %v after the last output (%v)", since, stalledAfter, rec.LastActivity)
	}
}

// TestIndexer_Run_hookMarkShowsLive: a hook's mark that the session waits
// for its user is published at once, though the indexer holds the
// session's log; the indexer's own commits of lines older than the mark
// keep it; the next activity ends it.
func TestIndexer_Run_hookMarkShowsLive(t *testing.T) {
	l := startLive(t, time.Hour)
	dir := filepath.Join(l.home, "projects", "-tmp-mark")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "mark.jsonl")
	t0 := time.Now()
	appendTo(t, path, toolUseLine("t1", "rm -rf build", t0))
	l.waitFor("mark", "the call", func(r tally.Record) bool { return r.Signal == tally.SignalWorking })

	ctx := context.Background()
	st, err := sqlite.Open(ctx, l.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	asked := t0.Add(10 * time.Millisecond)
	if err := st.UpdateHook(ctx, "mark", asked, func([]byte) ([]byte, tally.Signal, error) { return nil, tally.SignalAsking, nil }); err != nil {
		t.Fatal(err)
	}
	rec := l.waitFor("mark", "the hook's mark", func(r tally.Record) bool { return r.Signal == tally.SignalAsking })
	if f := rec.FlagsAt(time.Now()); !f.Has(tally.FlagNeedsInput) || !f.Since(tally.FlagNeedsInput).Equal(asked) {
		t.Errorf("flags %v, want needs input since the mark", f)
	}
	// A line from before the mark (the call's progress) keeps it.
	appendTo(t, path, progressLine(t0.Add(5*time.Millisecond)))
	rec = l.waitFor("mark", "the older line", func(r tally.Record) bool { return r.Stats.Lines == 2 })
	if rec.Signal != tally.SignalAsking {
		t.Errorf("a line older than the mark published the session as %v", rec.Signal)
	}
	// The answer ends it.
	appendTo(t, path, resultLine("t1", asked.Add(time.Second)))
	rec = l.waitFor("mark", "the answer", func(r tally.Record) bool { return r.Stats.Lines == 3 })
	if f := rec.FlagsAt(time.Now()); rec.Signal != tally.SignalWorking || f.Has(tally.FlagNeedsInput) {
		t.Errorf("after the answer: signal %v flags %v, want working, no needs input", rec.Signal, f)
	}
}

// TestIndexer_Run_aRequestDecidedElsewhereShowsLive: a request to the
// user, decided or closed by another process with nothing else of the
// session changed, is published, though the indexer holds the session's
// log.
func TestIndexer_Run_aRequestDecidedElsewhereShowsLive(t *testing.T) {
	l := startLive(t, time.Hour)
	dir := filepath.Join(l.home, "projects", "-tmp-ask")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	appendTo(t, filepath.Join(dir, "ask.jsonl"), toolUseLine("t1", "rm -rf build", t0))
	l.waitFor("ask", "the call", func(r tally.Record) bool { return r.Signal == tally.SignalWorking })
	ctx := context.Background()
	st, err := sqlite.Open(ctx, l.dbPath)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	q := tally.Request{ID: "r1", Session: "ask", Tool: "Bash", AskedAt: t0, ExpiresAt: t0.Add(time.Minute)}
	if err := st.AskRequest(ctx, q); err != nil {
		t.Fatal(err)
	}
	l.waitFor("ask", "the request", func(r tally.Record) bool { return len(r.Requests) == 1 })
	if _, err := st.DecideRequest(ctx, tally.Decision{ID: "r1", Session: "ask", Verdict: tally.VerdictAllow, At: time.Now()}); err != nil {
		t.Fatal(err)
	}
	l.waitFor("ask", "the decision", func(r tally.Record) bool { return len(r.Requests) == 1 && r.Requests[0].Verdict == tally.VerdictAllow })
}
