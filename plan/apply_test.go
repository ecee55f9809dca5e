package plan

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/marker"
)

// t0 is the clock of these tests.
var t0 = time.Date(2024, 1, 16, 10, 0, 0, 0, time.UTC)

// taskYAML is a task file as an agent writes it, with a comment and blank
// lines, and n pending steps.
func taskYAML(id, name string, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s, written while planning\nid: %s\nname: %s\ngoal: %s works\nstatus: planned    # planned | active | complete\n\nsteps:\n", name, id, name, name)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "  - id: S%d\n    name: Step %d of %s\n    done: Step %d checked\n    status: pending\n", i, i, name, i)
	}
	return b.String()
}

// newFolder makes a plan folder with tasks given as "T001-login:3" (folder
// and step count) and returns it with a clock at t0.
func newFolder(t testing.TB, tasks ...string) Folder {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docs", "por")
	for _, spec := range tasks {
		folder, n, _ := strings.Cut(spec, ":")
		steps := 3
		fmt.Sscan(n, &steps)
		writeTaskFile(t, dir, folder, taskYAML(folder[:4], strings.TrimPrefix(folder[4:], "-"), steps))
	}
	if len(tasks) == 0 {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return Folder{Dir: dir, Now: func() time.Time { return t0 }}
}

func writeTaskFile(t testing.TB, dir, folder, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, folder), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, folder, TaskFile), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// markers reads markers from an agent's message, keyed as the line at
// offset of session, written at.
func markers(session string, offset int64, at time.Time, text string) []Marker {
	var out []Marker
	for i, m := range marker.Scan([]byte(text)) {
		out = append(out, Marker{Marker: m, Key: Key(session, offset, i), At: at, By: session})
	}
	return out
}

func apply(t testing.TB, f Folder, ms []Marker) []Outcome {
	t.Helper()
	outs, err := f.Apply(ms)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

func load(t testing.TB, f Folder) *Plan {
	t.Helper()
	p, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func readString(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func verdicts(outs []Outcome) string {
	var vs []string
	for _, o := range outs {
		vs = append(vs, o.Verdict.String())
	}
	return strings.Join(vs, " ")
}

func ledgerTypes(p *Plan) string {
	var ts []string
	for _, e := range p.entries() {
		ts = append(ts, entryText(e))
	}
	return strings.Join(ts, ", ")
}

// The "done when": the agent writes "progress: T001.S1 done" and,
// with no other step, task.yaml shows S1 complete and S2 in progress (the
// agent's comments and blank lines kept), the ledger has the entry, and
// the plan reads T001 1/2.
func TestApply_stepDoneUpdatesTheFileAndTheLedger(t *testing.T) {
	f := newFolder(t, "T001-login:2", "T002-logout:2")
	path := filepath.Join(f.Dir, "T001-login", TaskFile)
	before := readString(t, path)
	apply(t, f, markers("s1", 100, t0, "Starting.\n\nprogress: T001 start"))
	outs := apply(t, f, markers("s1", 200, t0.Add(time.Minute), "The login form posts.\n\nprogress: T001.S1 done"))
	if verdicts(outs) != "applied" {
		t.Fatalf("verdicts %s", verdicts(outs))
	}
	// Only the three status words change.
	want := strings.Replace(before, "status: planned", "status: active", 1)
	want = strings.Replace(want, "status: pending", "status: complete", 1)
	want = strings.Replace(want, "status: pending", "status: in_progress", 1)
	if got := readString(t, path); got != want {
		t.Fatalf("task.yaml:\n%s\nwant:\n%s", got, want)
	}
	p := load(t, f)
	if got := ledgerTypes(p); got != "plan_created, task_activated T001, step_completed T001 S1" {
		t.Fatalf("ledger: %s", got)
	}
	e := p.entries()[2]
	if e.Key != "s1:200:0" || e.By != "s1" || !e.At.Equal(t0.Add(time.Minute)) {
		t.Fatalf("entry %+v", e)
	}
	if done, total := p.Task("T001").Progress(); done != 1 || total != 2 {
		t.Fatalf("T001 %d/%d", done, total)
	}
	if line := stateLine(p); line != "0/2 T001 active S2" {
		t.Fatalf("panel %q", line)
	}
}

// A marker is applied once: reading the same log line again (a rescan, a
// second Tally process) finds its key in the ledger.
func TestApply_sameKeyIsNotAppliedTwice(t *testing.T) {
	f := newFolder(t, "T001-a:3")
	ms := markers("s1", 0, t0, "progress: T001 start\nprogress: T001.S1 done")
	apply(t, f, ms)
	path := filepath.Join(f.Dir, "T001-a", TaskFile)
	file, ledger := readString(t, path), readString(t, filepath.Join(f.Dir, LedgerFile))
	outs := apply(t, f, ms)
	if verdicts(outs) != "duplicate duplicate" {
		t.Fatalf("second pass: %s", verdicts(outs))
	}
	if readString(t, path) != file || readString(t, filepath.Join(f.Dir, LedgerFile)) != ledger {
		t.Fatal("a duplicate changed the files")
	}
}

// History read at start-up must not rewind a plan: a marker older than
// the newest marker the plan has taken is skipped, and recorded as
// skipped (once), not as an error.
func TestApply_olderMarkerIsSkippedNotReapplied(t *testing.T) {
	f := newFolder(t, "T001-a:3")
	apply(t, f, markers("live", 0, t0.Add(time.Hour), "progress: T001 start\nprogress: T001.S1 done\nprogress: T001.S2 done"))
	old := markers("history", 0, t0, "progress: T001 start\nprogress: T001.S2 blocked: waiting")
	outs := apply(t, f, old)
	if verdicts(outs) != "skipped skipped" || !strings.Contains(outs[0].Reason, "older than the newest marker") {
		t.Fatalf("old markers: %s %q", verdicts(outs), outs[0].Reason)
	}
	if verdicts(apply(t, f, old)) != "duplicate duplicate" {
		t.Fatal("a skipped marker was judged again")
	}
	p := load(t, f)
	if _, blocked := p.Blocked("T001"); blocked || p.Task("T001").Current().ID != "S3" {
		t.Fatal("a skipped marker changed the plan")
	}
	if got := ledgerTypes(p); !strings.HasSuffix(got, "marker_skipped T001, marker_skipped T001 S2") {
		t.Fatalf("ledger: %s", got)
	}
}

// Two agents working at once: their markers reach the plan in the order
// their logs are read, not quite the order they wrote them. One a few
// seconds older than the newest the plan took is still judged, and the
// rules take a step done out of turn; only history (older than
// StaleAfter) is skipped.
func TestApply_concurrentAgentsOutOfOrderBothCount(t *testing.T) {
	f := newFolder(t, "T001-a:3")
	apply(t, f, markers("a", 0, t0, "progress: T001 start"))
	if outs := apply(t, f, markers("b", 100, t0.Add(10*time.Second), "progress: T001.S2 done")); verdicts(outs) != "applied" {
		t.Fatalf("b's S2: %s %s", verdicts(outs), outs[0].Reason)
	}
	outs := apply(t, f, markers("a", 200, t0.Add(8*time.Second), "progress: T001.S1 done"))
	if verdicts(outs) != "applied" {
		t.Fatalf("a's S1, written two seconds before b's S2 but read after it: %s %s", verdicts(outs), outs[0].Reason)
	}
	p := load(t, f)
	if done, _ := p.Task("T001").Progress(); done != 2 || p.Task("T001").Current().ID != "S3" {
		t.Fatalf("T001 %+v", p.Task("T001").Steps)
	}
	if outs := apply(t, f, markers("c", 0, t0.Add(10*time.Second-StaleAfter-time.Second), "progress: T001.S3 done")); verdicts(outs) != "skipped" {
		t.Fatalf("a marker older than StaleAfter: %s", verdicts(outs))
	}
}

// Markers of one message share its time: the second is not older than
// the first, so both apply.
func TestApply_severalMarkersInOneMessage(t *testing.T) {
	f := newFolder(t, "T001-a:2", "T002-b:2")
	outs := apply(t, f, markers("s", 0, t0, "progress: T001 start\nprogress: T001.S1 done\nprogress: T001.S2 done\nprogress: T002.S1 done"))
	if verdicts(outs) != "applied applied applied applied" {
		t.Fatalf("%s", verdicts(outs))
	}
	p := load(t, f)
	if stateLine(p) != "1/2 T002 active S2" {
		t.Fatalf("panel %q", stateLine(p))
	}
	want := "plan_created, task_activated T001, step_completed T001 S1, task_completed T001 S2, task_activated T002, step_completed T002 S1"
	if got := ledgerTypes(p); got != want {
		t.Fatalf("ledger:\n%s\nwant\n%s", got, want)
	}
}

func TestApply_rejectedIsRecordedWithItsReason(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	outs := apply(t, f, markers("s", 0, t0, "progress: T007.S1 done"))
	if outs[0].Verdict != Rejected || outs[0].Reason != "no task T007 in the plan" {
		t.Fatalf("%v %q", outs[0].Verdict, outs[0].Reason)
	}
	p := load(t, f)
	e := p.entries()[len(p.entries())-1]
	if e.Type != EntryRejected || e.Marker != "progress: T007.S1 done" || e.Reason != "no task T007 in the plan" || e.Key != "s:0:0" {
		t.Fatalf("entry %+v", e)
	}
}

// A blocked notice holds until the step is done; the ledger keeps it.
func TestApply_blockedHoldsUntilDone(t *testing.T) {
	f := newFolder(t, "T001-a:3")
	apply(t, f, markers("s", 0, t0, "progress: T001 start\nprogress: T001.S1 done"))
	apply(t, f, markers("s", 10, t0.Add(time.Minute), "progress: T001.S2 blocked: waiting for API key"))
	p := load(t, f)
	e, ok := p.Blocked("T001")
	if !ok || e.Step != "S2" || e.Reason != "waiting for API key" || p.Task("T001").Step("S2").Status != StepInProgress {
		t.Fatalf("blocked %v %+v", ok, e)
	}
	if stateLine(p) != "0/1 T001 blocked" {
		t.Fatalf("panel %q", stateLine(p))
	}
	apply(t, f, markers("s", 20, t0.Add(2*time.Minute), "progress: T001.S2 done"))
	if _, ok := load(t, f).Blocked("T001"); ok {
		t.Fatal("still blocked after done")
	}
}

func TestApply_markerWithoutTimeIsNeverStale(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	f.Now = func() time.Time { return t0.Add(-time.Hour) } // a clock behind the ledger
	apply(t, f, markers("s", 0, t0, "progress: T001 start"))
	outs := apply(t, f, []Marker{{Marker: mark(t, "T001.S1 done"), Key: "cli:1"}})
	if outs[0].Verdict != Skipped {
		t.Fatalf("a marker dated by a clock behind the ledger: %v", outs[0].Verdict)
	}
	f.Now = func() time.Time { return t0.Add(time.Hour) }
	if outs := apply(t, f, []Marker{{Marker: mark(t, "T001.S1 done"), Key: "cli:2"}}); outs[0].Verdict != Applied {
		t.Fatalf("undated marker: %v %s", outs[0].Verdict, outs[0].Reason)
	}
}

func TestApply_noPlanFolder(t *testing.T) {
	f := Folder{Dir: filepath.Join(t.TempDir(), "docs", "por")}
	if _, err := f.Apply(markers("s", 0, t0, "progress: T001 start")); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Fatalf("err %v", err)
	}
}

// The ledger survives a crash mid-append: the cut line is ignored and the
// next entries start on a line of their own.
func TestApply_afterATornLedgerLine(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	apply(t, f, markers("s", 0, t0, "progress: T001 start"))
	lf, err := os.OpenFile(filepath.Join(f.Dir, LedgerFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	lf.WriteString(`{"type":"step_compl`)
	lf.Close()
	p := load(t, f)
	if len(p.Problems) != 0 || ledgerTypes(p) != "plan_created, task_activated T001" {
		t.Fatalf("torn tail: %v %s", p.Problems, ledgerTypes(p))
	}
	apply(t, f, markers("s", 10, t0, "progress: T001.S1 done"))
	p = load(t, f)
	if ledgerTypes(p) != "plan_created, task_activated T001, step_completed T001 S1" {
		t.Fatalf("after append: %s", ledgerTypes(p))
	}
	if len(p.Problems) != 1 || p.Problems[0].Line != 3 || p.Problems[0].Msg != "not a ledger entry" {
		t.Fatalf("the torn line, now terminated, is one problem: %v", p.Problems)
	}
}

func TestApply_removesWhatACrashedWriterLeft(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	stale := filepath.Join(f.Dir, "T001-a", ".task.yaml.123"+tempSuffix)
	os.WriteFile(stale, []byte("half a fi"), 0o644)
	apply(t, f, markers("s", 0, t0, "progress: T001 start"))
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale temporary file: %v", err)
	}
}

// scope.yaml is created with the first plan and follows the task folders;
// the ledger says what changed.
func TestScope_followsTheTaskFolders(t *testing.T) {
	f := newFolder(t, "T001-oauth:4", "T002-login:3")
	if entries, err := f.Sync(); err != nil || len(entries) != 0 {
		t.Fatalf("while planning: %v %+v", err, entries)
	}
	if _, err := os.Stat(filepath.Join(f.Dir, ScopeFile)); !os.IsNotExist(err) {
		t.Fatalf("scope.yaml before execution: %v", err)
	}
	apply(t, f, markers("s", 0, t0, "progress: T001 start"))
	p := load(t, f)
	if e := p.entries()[0]; e.Type != EntryPlanCreated || e.Total != 2 || !reflect.DeepEqual(e.Tasks, []string{"T001-oauth", "T002-login"}) {
		t.Fatalf("first marker: %+v", p.entries())
	}
	scopePath := filepath.Join(f.Dir, ScopeFile)
	if got := readString(t, scopePath); got != scopeHeader+"original: 2\ncurrent: 2\n" {
		t.Fatalf("scope.yaml:\n%s", got)
	}
	if entries, _ := f.Sync(); len(entries) != 0 {
		t.Fatalf("nothing changed, yet: %+v", entries)
	}
	// The user adds a comment; Tally keeps it when it updates the counts.
	os.WriteFile(scopePath, []byte("# ours\noriginal: 2   # set once\ncurrent: 2\n"), 0o644)
	writeTaskFile(t, f.Dir, "T003-mfa", taskYAML("T003", "mfa", 2))
	entries, _ := f.Sync()
	if len(entries) != 1 || entries[0].Type != EntryScopeChange || entries[0].From != 2 || entries[0].To != 3 ||
		!reflect.DeepEqual(entries[0].Added, []string{"T003-mfa"}) {
		t.Fatalf("added: %+v", entries)
	}
	if got := readString(t, scopePath); got != "# ours\noriginal: 2   # set once\ncurrent: 3\n" {
		t.Fatalf("scope.yaml:\n%s", got)
	}
	os.RemoveAll(filepath.Join(f.Dir, "T002-login"))
	entries, _ = f.Sync()
	if len(entries) != 1 || entries[0].From != 3 || entries[0].To != 2 || !reflect.DeepEqual(entries[0].Removed, []string{"T002-login"}) {
		t.Fatalf("removed: %+v", entries)
	}
	if s := load(t, f).Scope; s != (Scope{Original: 2, Current: 2}) {
		t.Fatalf("scope %+v", s)
	}
}

// A quick task promoted to a task: the agent writes its task.yaml and
// sends "promoted"; the scope counts one more task, as a promotion.
func TestScope_promotedQuickTaskAddsOne(t *testing.T) {
	f := newFolder(t, "T001-oauth:2", "T002-login:2")
	apply(t, f, markers("s", -1, t0, "progress: T001 start"))
	writeTaskFile(t, f.Dir, "T003-fix-login", strings.Replace(taskYAML("T003", "fix-login", 3), "status: planned", "status: active", 1))
	outs := apply(t, f, markers("s", 0, t0.Add(time.Hour), "The login bug is bigger than it looked.\n\nprogress: T003 promoted"))
	if outs[0].Verdict != Applied {
		t.Fatalf("%v %s", outs[0].Verdict, outs[0].Reason)
	}
	p := load(t, f)
	if p.Scope != (Scope{Original: 2, Current: 3}) || !p.Promoted("T003") {
		t.Fatalf("scope %+v promoted %v", p.Scope, p.Promoted("T003"))
	}
	got := ledgerTypes(p)
	if got != "plan_created, task_activated T001, scope_change, task_promoted T003" || p.entries()[2].Reason != "promoted from a quick task" {
		t.Fatalf("ledger: %s (%q)", got, p.entries()[2].Reason)
	}
	if verdicts(apply(t, f, markers("s", 10, t0.Add(2*time.Hour), "progress: T003 promoted"))) != "unchanged" {
		t.Fatal("a second promotion was applied")
	}
	if load(t, f).Scope.Current != 3 {
		t.Fatal("a second promotion counted again")
	}
}

// A quick task promoted before any plan exists: the plan starts with no
// planned task and one promoted.
func TestScope_promotionAsTheFirstTask(t *testing.T) {
	f := newFolder(t, "T001-fix-login:3")
	apply(t, f, markers("s", 0, t0, "progress: T001 promoted"))
	p := load(t, f)
	if p.Scope != (Scope{Original: 0, Current: 1}) || ledgerTypes(p) != "scope_change, task_promoted T001" {
		t.Fatalf("scope %+v ledger %s", p.Scope, ledgerTypes(p))
	}
}

func TestLoad_invalidAndDuplicateTasks(t *testing.T) {
	f := newFolder(t, "T001-a:2", "T002-b:2", "T002-c:2")
	writeTaskFile(t, f.Dir, "T003-d", "id: T003\nname: d\ngoal: g\nsteps:\n  - {id: S, name: a, done: b}\n  - {id: S2, name: a, done: b}\n")
	writeTaskFile(t, f.Dir, "T004-e", taskYAML("T005", "e", 2))
	p := load(t, f)
	if len(p.Tasks) != 1 || p.Tasks[0].ID != "T001" || len(p.Folders) != 5 {
		t.Fatalf("tasks %v folders %v", p.Tasks, p.Folders)
	}
	want := []string{
		"T002-b/task.yaml: duplicate task id T002 (folders [T002-b T002-c])",
		"T002-c/task.yaml: duplicate task id T002 (folders [T002-b T002-c])",
		`T003-d/task.yaml:5: step id "S" must be S<number>, like S1`,
		`T004-e/task.yaml:2: task id "T005" does not match its folder T004-e`,
	}
	var got []string
	for _, pr := range p.Problems {
		got = append(got, pr.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("problems:\n%s", strings.Join(got, "\n"))
	}
	outs := apply(t, f, markers("s", 0, t0, "progress: T003 start"))
	if outs[0].Reason != `T003 cannot be used: T003-d/task.yaml:5: step id "S" must be S<number>, like S1` {
		t.Fatalf("reason %q", outs[0].Reason)
	}
}

func TestCreate_numbersOnFromTheHighestFolder(t *testing.T) {
	f := newFolder(t, "T001-a:2", "T007-b:2")
	task, err := f.Create(NewTask{Name: "User Profile", Goal: "Users can edit their profile",
		Steps: []NewStep{{"Design the form", "Mock-up agreed"}, {"Build it", "The form saves"}}})
	if err != nil {
		t.Fatal(err)
	}
	if task.ID != "T008" || task.Dir != "T008-user-profile" {
		t.Fatalf("created %s in %s", task.ID, task.Dir)
	}
	p := load(t, f)
	if got := p.Task("T008"); got == nil || got.Steps[1].Done != "The form saves" || got.Status != TaskPlanned {
		t.Fatalf("read back %+v", got)
	}
	if p.HasScope || p.ScopeNow() != (Scope{Original: 3, Current: 3}) {
		t.Fatalf("while planning, the scope is counted, not stored: %+v", p.Scope)
	}
	if _, err := f.Create(NewTask{Name: "x", Goal: "y", Steps: []NewStep{{"one", "done"}}}); tally.ErrorCode(err) != tally.CodeInvalid ||
		err.Error() != "new task: a task has 2 to 8 steps, not 1" {
		t.Fatalf("one step: %v", err)
	}
}

func TestNextID(t *testing.T) {
	f := newFolder(t)
	if id, _ := f.NextID(); id != "T001" {
		t.Fatalf("empty folder: %s", id)
	}
	os.MkdirAll(filepath.Join(f.Dir, "T041-x"), 0o755)
	os.MkdirAll(filepath.Join(f.Dir, "archive-T900"), 0o755)
	if id, _ := f.NextID(); id != "T042" {
		t.Fatalf("after T041: %s", id)
	}
}

func TestSlug(t *testing.T) {
	for name, want := range map[string]string{
		"User Profile":              "user-profile",
		"  OAuth / SSO!  ":          "oauth-sso",
		"设计 API":                    "设计-api",
		"!!!":                       "",
		strings.Repeat("word ", 20): "word-word-word-word-word-word-word-word",
	} {
		if got := Slug(name); got != want {
			t.Errorf("Slug(%q) = %q, want %q", name, got, want)
		}
	}
}

// A marker naming no task does not end planning: the plan is made by the
// first marker that names one of its tasks.
func TestApply_rejectedMarkerDoesNotMakeThePlan(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	apply(t, f, markers("s", 0, t0, "progress: T002 start"))
	if p := load(t, f); p.HasScope || ledgerTypes(p) != "marker_rejected T002" {
		t.Fatalf("scope %v, ledger %s", p.HasScope, ledgerTypes(p))
	}
	if _, err := f.Apply(nil); err != nil {
		t.Fatal(err)
	}
	if load(t, f).HasScope {
		t.Fatal("applying no marker made the plan")
	}
}

// Writers take turns on the folder itself: applying leaves nothing in the
// user's repository but the plan's own files.
func TestApply_leavesOnlyThePlanFiles(t *testing.T) {
	f := newFolder(t, "T001-a:2")
	apply(t, f, markers("s", 0, t0, "progress: T001 start"))
	des, err := os.ReadDir(f.Dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, de := range des {
		names = append(names, de.Name())
	}
	if got := strings.Join(names, " "); got != "T001-a ledger.jsonl scope.yaml" {
		t.Fatalf("the plan folder holds %s", got)
	}
}

// stateLine is where a plan stands, in a few words: X/Y, then the active
// task with its current step (or blocked), or complete.
func stateLine(p *Plan) string {
	done, total := p.Progress()
	s := fmt.Sprintf("%d/%d", done, total)
	if total > 0 && done == total {
		return s + " complete"
	}
	for _, t := range p.Tasks {
		if t.Status != TaskActive {
			continue
		}
		if _, blocked := p.Blocked(t.ID); blocked {
			return s + " " + t.ID + " blocked"
		}
		if c := t.Current(); c != nil {
			return s + " " + t.ID + " active " + c.ID
		}
		return s + " " + t.ID + " active"
	}
	return s
}

// entries are the plan's ledger entries, read again from its folder.
func (p *Plan) entries() []Entry {
	es, _, _ := (Folder{Dir: p.Dir}).Entries()
	return es
}
