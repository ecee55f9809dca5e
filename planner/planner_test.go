package planner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planner"
)

// The agent's markers, committed by the indexer, change the plan's files
// once applied: after the first three, T001 is active at S2 with the
// blocked notice; after all six both tasks are complete. Each result is
// recorded in the store, each entry in the ledger with its session and
// line, and the news (blocked, task complete, plan complete) is told.
func TestPlanner_appliesCommittedMarkers(t *testing.T) {
	dir := project(t)
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	var r recorder
	p := newPlanner(st, &r)
	ms := found(t, dir)
	ctx := context.Background()

	commit(t, st, ms[:3])
	if err := p.ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	v, ok, err := p.ViewFor(dir)
	if err != nil || !ok {
		t.Fatalf("view: %v %v", ok, err)
	}
	if v.Line != "0/2 ⚠ T001 BLOCKED" || v.Stage != planner.StageBlocked || v.Active == nil || v.Active.StepID != "S2" || v.Active.Done != 1 || v.Blocked == nil {
		t.Fatalf("view after three markers: %+v", v)
	}
	task := readFile(t, filepath.Join(dir, "docs/por/T001-greeting-module/task.yaml"))
	if !strings.Contains(task, "status: active") || strings.Count(task, "status: complete") != 1 || !strings.Contains(task, "status: in_progress") {
		t.Fatalf("T001 task.yaml:\n%s", task)
	}

	commit(t, st, ms[3:])
	if err := p.ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	for key, v := range states(t, st) {
		if v != tally.MarkerApplied {
			t.Errorf("%s: %v", key, v)
		}
	}
	if v, _, _ = p.ViewFor(dir); v.Line != "✓ 2/2 Complete" || v.Stage != planner.StageComplete || v.Percent != 100 {
		t.Fatalf("view at the end: %+v", v)
	}
	want := "step_blocked ⚠ T001 S2 blocked: pytest is not installed\n" +
		"task_complete ✓ T001 complete (2/2)\n" +
		"task_complete ✓ T002 complete (2/2)\n" +
		"plan_complete ✓ All complete (2/2)"
	if got := r.eventTexts(); got != want {
		t.Fatalf("events:\n%s\nwant:\n%s", got, want)
	}
	ledger, _, err := (plan.Folder{Dir: filepath.Join(dir, "docs/por")}).Entries()
	if err != nil {
		t.Fatal(err)
	}
	e := ledger[2] // step_completed T001 S1
	if e.By != sid || e.Key != ms[1].Key || !e.At.Equal(ms[1].Marker.At) {
		t.Fatalf("ledger entry %+v, want by %s key %s", e, sid, ms[1].Key)
	}
	if pending, _ := st.PendingMarkers(ctx, 10); len(pending) != 0 {
		t.Fatalf("still pending: %+v", pending)
	}
}

// A second Tally with its own store reads the same log: it applies
// nothing twice, and records what the first one did, as the plan's ledger
// says it.
func TestPlanner_anotherProcessAppliesNothingTwice(t *testing.T) {
	dir := project(t)
	ms := found(t, dir)
	ctx := context.Background()
	first := openStore(t, filepath.Join(t.TempDir(), "a.db"))
	commit(t, first, ms)
	if err := newPlanner(first, &recorder{}).ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	ledger := readFile(t, filepath.Join(dir, "docs/por", plan.LedgerFile))

	second := openStore(t, filepath.Join(t.TempDir(), "b.db"))
	commit(t, second, ms)
	var r recorder
	if err := newPlanner(second, &r).ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "docs/por", plan.LedgerFile)); got != ledger {
		t.Fatalf("the second process wrote to the ledger:\n%s", strings.TrimPrefix(got, ledger))
	}
	for key, v := range states(t, second) {
		if v != tally.MarkerApplied {
			t.Errorf("%s recorded %v by the second process, want what the ledger says (applied)", key, v)
		}
	}
	if r.eventTexts() != "" {
		t.Fatalf("the second process told news again: %s", r.eventTexts())
	}
}

// History read late does not rewind the plan: a marker older than the
// newest the plan has taken is recorded as skipped, and the files stay.
func TestPlanner_staleMarkerDoesNotRewind(t *testing.T) {
	dir := project(t)
	ms := found(t, dir)
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	ctx := context.Background()
	p := newPlanner(st, &recorder{})
	commit(t, st, ms[:2]) // T001 start, T001.S1 done
	if err := p.ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	task := filepath.Join(dir, "docs/por/T001-greeting-module/task.yaml")
	before := readFile(t, task)
	// Another session's old marker, read only now: it would move T002
	// on before T001 is done.
	old := tally.FoundMarker{Key: tally.MarkerKey("other", "", 10, 0), Session: "other", Project: dir,
		Marker: tally.Marker{Task: "T001", Verb: "start", At: ms[0].Marker.At.Add(-time.Hour)}}
	commit(t, st, []tally.FoundMarker{old})
	if err := p.ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := st.SessionMarkers(ctx, "other")
	if err != nil || len(got) != 1 || got[0].Result.Verdict != tally.MarkerSkipped || !strings.Contains(got[0].Result.Reason, "older than") {
		t.Fatalf("the old marker: %+v, %v", got, err)
	}
	if readFile(t, task) != before {
		t.Fatal("a stale marker changed the task file")
	}
}

// A project without a plan folder gets no plan: its markers are recorded
// as "no plan", and nothing is created.
func TestPlanner_noPlanFolderNoPlan(t *testing.T) {
	dir := t.TempDir()
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	commit(t, st, found(t, dir)[:1])
	if err := newPlanner(st, &recorder{}).ApplyPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, v := range states(t, st) {
		if v != tally.MarkerNoPlan {
			t.Fatalf("verdict %v", v)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "docs")); !os.IsNotExist(err) {
		t.Fatalf("a plan folder appeared: %v", err)
	}
}

// A plan that cannot be written is a diagnostic, said once, and its
// markers wait: once the plan can be written they are applied.
func TestPlanner_unwritablePlanWaits(t *testing.T) {
	dir := project(t)
	ledger := filepath.Join(dir, "docs/por", plan.LedgerFile)
	if err := os.Mkdir(ledger, 0o755); err != nil { // a ledger no one can append to
		t.Fatal(err)
	}
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	var r recorder
	p := newPlanner(st, &r)
	ctx := context.Background()
	commit(t, st, found(t, dir)[:2])
	for range 3 {
		if err := p.ApplyPending(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if len(r.diags) != 1 || r.diags[0].Path != filepath.Join(dir, "docs/por") {
		t.Fatalf("diagnostics %+v", r.diags)
	}
	if pending, _ := st.PendingMarkers(ctx, 10); len(pending) != 2 {
		t.Fatalf("%d pending, want both waiting", len(pending))
	}
	if err := os.Remove(ledger); err != nil {
		t.Fatal(err)
	}
	if err := p.ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	if v, _, _ := p.ViewFor(dir); v.Line != "0/2 → T001 [S2]" {
		t.Fatalf("after the fix: %q", v.Line)
	}
}

// A plan folder Tally refuses to write (here a ledger linking out of the
// project) does not become writable by waiting: its markers are settled
// as rejected, saying why, counted, said once as a diagnostic, and the
// link's target is left as it was.
func TestPlanner_refusedPlanSettlesItsMarkers(t *testing.T) {
	dir := project(t)
	victim := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(victim, []byte("export A=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ledger := filepath.Join(dir, "docs/por", plan.LedgerFile)
	os.Remove(ledger)
	if err := os.Symlink(victim, ledger); err != nil {
		t.Fatal(err)
	}
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	var r recorder
	p := newPlanner(st, &r)
	ctx := context.Background()
	commit(t, st, found(t, dir)[:3])
	for range 2 {
		if err := p.ApplyPending(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if got := readFile(t, victim); got != "export A=1\n" {
		t.Fatalf("the link's target now holds %q", got)
	}
	if pending, _ := st.PendingMarkers(ctx, 10); len(pending) != 0 {
		t.Fatalf("%d markers still pending", len(pending))
	}
	got, err := st.SessionMarkers(ctx, sid)
	if err != nil || len(got) != 3 {
		t.Fatalf("results: %+v %v", got, err)
	}
	for _, m := range got {
		if m.Result.Verdict != tally.MarkerRejected || !strings.Contains(m.Result.Reason, "ledger.jsonl is a symbolic link") {
			t.Errorf("%s: %v %q", m.Key, m.Result.Verdict, m.Result.Reason)
		}
	}
	if p.Refused() != 3 || len(r.diags) != 1 || !strings.Contains(r.diags[0].Msg, "refused") {
		t.Fatalf("refused %d, diagnostics %+v", p.Refused(), r.diags)
	}
}

// Files agents write between markers reach the surfaces: a new task
// folder is a change, and the scope follows it once the plan is under
// way.
func TestPlanner_seesFilesNoMarkerWrote(t *testing.T) {
	dir := project(t)
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	p := newPlanner(st, &recorder{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sub := p.Subscribe(16)
	defer sub.Close()
	commit(t, st, found(t, dir)[:1])
	if err := p.ApplyPending(ctx); err != nil {
		t.Fatal(err)
	}
	<-sub.C // the marker's change
	p.Look()
	src := filepath.Join(dir, "docs/por/T002-docs")
	dst := filepath.Join(dir, "docs/por/T003-release")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	data := strings.Replace(readFile(t, filepath.Join(src, plan.TaskFile)), "T002", "T003", 1)
	if err := os.WriteFile(filepath.Join(dst, plan.TaskFile), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	p.Look()
	select {
	case c := <-sub.C:
		if c.Project != dir {
			t.Fatalf("change %+v", c)
		}
	default:
		t.Fatal("a new task folder was no change")
	}
	pl, err := p.Load(dir)
	if err != nil || pl.Scope != (plan.Scope{Original: 2, Current: 3}) {
		t.Fatalf("scope %+v, %v", pl.Scope, err)
	}
}

// Before any marker the plan is being written ("Planning…"); a marker
// puts it to work.
func TestView_stages(t *testing.T) {
	dir := project(t)
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	p := newPlanner(st, &recorder{})
	if v, ok, _ := p.ViewFor(dir); !ok || v.Stage != planner.StagePlanning || v.Line != "Planning…" {
		t.Fatalf("before any marker: %+v", v)
	}
	commit(t, st, found(t, dir)[:1])
	if err := p.ApplyPending(context.Background()); err != nil {
		t.Fatal(err)
	}
	if v, _, _ := p.ViewFor(dir); v.Stage != planner.StageWorking || v.Line != "0/2 → T001 [S1]" {
		t.Fatalf("after T001 start: %+v", v)
	}
	if _, ok, err := p.ViewFor(t.TempDir()); ok || err != nil {
		t.Fatalf("a project without a plan folder has a view: %v %v", ok, err)
	}
}

// A plan whose files say two tasks are active shows the blocked one: the
// board's Blueprint and the terminal's panel say BLOCKED, whichever of
// the active tasks it is.
func TestViewOf_aBlockedTaskIsNotHiddenBehindAnotherActiveOne(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "docs", "por")
	for _, id := range []string{"T001", "T002"} {
		os.MkdirAll(filepath.Join(dir, id+"-x"), 0o755)
		os.WriteFile(filepath.Join(dir, id+"-x", plan.TaskFile), []byte("id: "+id+"\nname: "+id+" work\ngoal: done\nstatus: active\nsteps:\n"+
			"  - id: S1\n    name: One\n    done: one\n    status: in_progress\n  - id: S2\n    name: Two\n    done: two\n    status: pending\n"), 0o644)
	}
	f := plan.Folder{Dir: dir}
	if _, err := f.Apply([]plan.Marker{{Marker: tally.Marker{Task: "T002", Step: "S1", Verb: "blocked", Reason: "waiting for review"}}}); err != nil {
		t.Fatal(err)
	}
	pl, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	v := planner.ViewOf("p", pl)
	if v.Stage != planner.StageBlocked || v.Active == nil || v.Active.ID != "T002" || v.Blocked == nil || v.Blocked.Reason != "waiting for review" {
		t.Fatalf("view %+v, active %+v", v, v.Active)
	}
}
