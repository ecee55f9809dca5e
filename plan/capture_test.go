package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/marker"
)

// capture is a real Claude Code session that planned into docs/por and
// wrote progress markers in its replies (see its README.md).
const capture = "testdata/claude-code-2.1.330-plan-markers"

// captureFocus is a real Claude Code session that followed a plan writing
// markers as agents do (in backticks, after bullets, capitalised, one
// near miss), started a second task while one was active and recorded a
// quick task (see its README.md).
const captureFocus = "testdata/claude-code-2.1.330-plan-focus"

// message is an assistant message of the capture: its text, where its
// line starts in the log, and when it was written.
type message struct {
	session string
	offset  int64
	at      time.Time
	text    string
}

// assistantMessages reads the session log the way an indexer would: line
// by line, keeping each line's byte offset, taking the text blocks of
// assistant lines.
func assistantMessages(t *testing.T) []message {
	t.Helper()
	return assistantMessagesIn(t, capture)
}

// assistantMessagesIn is assistantMessages of the capture in dir.
func assistantMessagesIn(t *testing.T, dir string) []message {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "config/projects/*/*.jsonl"))
	if err != nil || len(logs) != 1 {
		t.Fatalf("the capture's session log: %v %v", logs, err)
	}
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []message
	r := bufio.NewReader(bytes.NewReader(data))
	var offset int64
	for {
		line, err := r.ReadBytes('\n')
		if len(line) == 0 {
			break
		}
		var l struct {
			Type      string    `json:"type"`
			SessionID string    `json:"sessionId"`
			Timestamp time.Time `json:"timestamp"`
			Message   struct {
				Content []struct {
					Type string `json:"type"`
					Text string `json:"text"`
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &l) == nil && l.Type == "assistant" {
			for _, c := range l.Message.Content {
				if c.Type == "text" {
					out = append(out, message{l.SessionID, offset, l.Timestamp, c.Text})
				}
			}
		}
		offset += int64(len(line))
		if err != nil {
			break
		}
	}
	return out
}

// copyPlan copies the capture's plan folder, as the agent left it.
func copyPlan(t *testing.T) Folder {
	t.Helper()
	return copyPlanFrom(t, capture)
}

// copyPlanFrom is copyPlan of the capture in dir.
func copyPlanFrom(t *testing.T, dir string) Folder {
	t.Helper()
	src := filepath.Join(dir, "work/docs/por")
	dst := filepath.Join(t.TempDir(), "docs", "por")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return Folder{Dir: dst, Now: func() time.Time { return time.Date(2026, 11, 23, 17, 0, 0, 0, time.UTC) }}
}

// applyMessage applies one message's markers, keyed by its log line.
func applyMessage(t *testing.T, f Folder, m message) []Outcome {
	t.Helper()
	var ms []Marker
	for i, mk := range marker.Scan([]byte(m.text)) {
		ms = append(ms, Marker{Marker: mk, Key: Key(m.session, m.offset, i), At: m.at, By: m.session})
	}
	if len(ms) == 0 {
		return nil
	}
	return apply(t, f, ms)
}

// The agent's markers, applied message by message from its own log, move
// its own plan files along: after "T001.S1 done" the plan reads T001 1/2
// at S2; at the end both tasks are complete, the files changed only in
// their status words, and the ledger tells the story in order.
func TestCapture_claudeMarkersAdvanceThePlan(t *testing.T) {
	msgs := assistantMessages(t)
	f := copyPlan(t)
	t001 := filepath.Join(f.Dir, "T001-greeting-module", TaskFile)
	original := readString(t, t001)
	var all []Outcome
	for _, m := range msgs {
		outs := applyMessage(t, f, m)
		all = append(all, outs...)
		if len(outs) == 1 && outs[0].Text == "progress: T001.S1 done" {
			p := load(t, f)
			done, total := p.Task("T001").Progress()
			if done != 1 || total != 2 || stateLine(p) != "0/2 T001 active S2" {
				t.Fatalf("after S1 done: T001 %d/%d, panel %q", done, total, stateLine(p))
			}
		}
	}
	var texts []string
	for _, o := range all {
		if o.Verdict != Applied {
			t.Fatalf("%s: %v %s", o.Text, o.Verdict, o.Reason)
		}
		texts = append(texts, o.Text)
	}
	want := []string{"progress: T001 start", "progress: T001.S1 done", "progress: T001.S2 blocked: pytest is not installed",
		"progress: T001.S2 done", "progress: T002.S1 done", "progress: T002.S2 done"}
	if strings.Join(texts, "\n") != strings.Join(want, "\n") {
		t.Fatalf("markers found in the log:\n%s", strings.Join(texts, "\n"))
	}

	// The agent's file: comments, blank lines and layout kept; only the
	// status words moved on.
	wantFile := strings.Replace(original, "status: planned", "status: complete", 1)
	wantFile = strings.ReplaceAll(wantFile, "status: pending", "status: complete")
	if got := readString(t, t001); got != wantFile {
		t.Fatalf("T001 task.yaml:\n%s\nwant:\n%s", got, wantFile)
	}
	p := load(t, f)
	if stateLine(p) != "2/2 complete" || len(p.Problems) != 0 || p.Scope != (Scope{Original: 2, Current: 2}) {
		t.Fatalf("panel %q, problems %v, scope %+v", stateLine(p), p.Problems, p.Scope)
	}
	wantLedger := "plan_created, task_activated T001, step_completed T001 S1, step_blocked T001 S2, " +
		"task_completed T001 S2, task_activated T002, step_completed T002 S1, task_completed T002 S2, all_complete"
	if got := ledgerTypes(p); got != wantLedger {
		t.Fatalf("ledger:\n%s\nwant:\n%s", got, wantLedger)
	}
	blocked := p.entries()[3]
	if blocked.Reason != "pytest is not installed" || blocked.By != "68c26bdc-7510-48dd-82af-1c0fcfd325ad" ||
		!strings.HasPrefix(blocked.Key, "68c26bdc-7510-48dd-82af-1c0fcfd325ad:") || blocked.At.Year() != 2026 {
		t.Fatalf("blocked entry %+v", blocked)
	}
	// The two markers of one message share its line: same offset, index 0
	// and 1.
	if k1, k2 := p.entries()[4].Key, p.entries()[6].Key; strings.TrimSuffix(k1, ":0") != strings.TrimSuffix(k2, ":1") || k1 == k2 {
		t.Fatalf("keys of one message: %s %s", k1, k2)
	}

	// Reading the whole log again (a rescan, another Tally) changes nothing.
	ledger := readString(t, filepath.Join(f.Dir, LedgerFile))
	for _, m := range msgs {
		for _, o := range applyMessage(t, f, m) {
			if o.Verdict != Duplicate {
				t.Fatalf("second read: %s %v", o.Text, o.Verdict)
			}
		}
	}
	if readString(t, filepath.Join(f.Dir, LedgerFile)) != ledger || readString(t, t001) != wantFile {
		t.Fatal("reading the log again changed the plan")
	}
}

// outcomeOf is the outcome of the marker written as text, found among all.
func outcomeOf(t *testing.T, all []Outcome, text string) Outcome {
	t.Helper()
	for _, o := range all {
		if o.Text == text {
			return o
		}
	}
	t.Fatalf("no marker %q among the outcomes", text)
	return Outcome{}
}

// applyAll applies the capture's messages one by one, as an indexer would.
func applyAll(t *testing.T, f Folder, msgs []message) []Outcome {
	t.Helper()
	var all []Outcome
	for _, m := range msgs {
		all = append(all, applyMessage(t, f, m)...)
	}
	return all
}

// The markers as Claude Code wrote them move the plan: in backticks (as
// the protocol shows them), after a list bullet, with the keyword in
// capitals. The line meant as a marker that is not one ("Progress:
// T001.S2 finished") moves nothing and is in the ledger as unrecognised,
// with the line and why, so the timeline says why the plan did not move.
func TestCapture_markersInMarkupMoveThePlanAndANearMissIsRecorded(t *testing.T) {
	f := copyPlanFrom(t, captureFocus)
	all := applyAll(t, f, assistantMessagesIn(t, captureFocus))
	for _, text := range []string{"progress: T001 start", "progress: T001.S1 done", "progress: T001.S2 done", "progress: T003.S2 done"} {
		if o := outcomeOf(t, all, text); o.Verdict != Applied {
			t.Errorf("%s: %v %s", text, o.Verdict, o.Reason)
		}
	}
	miss := outcomeOf(t, all, "Progress: T001.S2 finished")
	if miss.Verdict != Rejected || len(miss.Entries) != 1 {
		t.Fatalf("the near miss: %v %s, entries %+v", miss.Verdict, miss.Reason, miss.Entries)
	}
	e := miss.Entries[0]
	if e.Type != EntryUnrecognised || e.Marker != "Progress: T001.S2 finished" || !strings.Contains(e.Reason, `"finished" is not an action`) ||
		e.By != "2266b703-6c71-47e1-9789-b99dd61d4cbe" || e.Key == "" {
		t.Fatalf("the near miss's entry %+v", e)
	}
	var found bool
	for _, le := range load(t, f).entries() {
		found = found || le.Type == EntryUnrecognised && le.Marker == e.Marker
	}
	if !found {
		t.Fatal("the near miss is not in the ledger")
	}
}

// One task is active at a time, the current focus: Claude Code started
// T002 while T001 was active, so T001 was paused (its work kept); the
// blocked T002 is the plan's state; completing T002 resumed T001 rather
// than starting T003 beside it; completing T001 started T003.
func TestCapture_oneTaskIsActiveAtATime(t *testing.T) {
	f := copyPlanFrom(t, captureFocus)
	after := map[string]string{}
	for _, m := range assistantMessagesIn(t, captureFocus) {
		outs := applyMessage(t, f, m)
		if len(outs) == 0 {
			continue
		}
		p := load(t, f)
		var active []string
		for _, task := range p.Tasks {
			if task.Status == TaskActive {
				active = append(active, task.ID)
			}
		}
		if len(active) > 1 {
			t.Fatalf("after %q: %d tasks active (%v)", outs[len(outs)-1].Text, len(active), active)
		}
		after[outs[len(outs)-1].Text] = stateLine(p)
		if outs[0].Text == "progress: T002 start" {
			t001 := p.Task("T001")
			if t001.Status != TaskPlanned || t001.Steps[0].Status != StepComplete || t001.Steps[1].Status != StepInProgress {
				t.Fatalf("T001 after T002 started: %s, steps %s %s", t001.Status, t001.Steps[0].Status, t001.Steps[1].Status)
			}
		}
	}
	for text, want := range map[string]string{
		"progress: T002 start": "0/3 T002 active S1",
		"progress: T002.S1 blocked: waiting for a review of the wording": "0/3 T002 blocked",
		"progress: T002.S2 done": "1/3 T001 active S2",
		"progress: T001.S2 done": "2/3 T003 active S1",
		"progress: T003.S2 done": "3/3 complete",
	} {
		if after[text] != want {
			t.Errorf("after %q: %q, want %q", text, after[text], want)
		}
	}
	var paused []Entry
	for _, e := range load(t, f).entries() {
		if e.Type == EntryTaskPaused {
			paused = append(paused, e)
		}
	}
	if len(paused) != 1 || paused[0].Task != "T001" || !strings.Contains(paused[0].Reason, "T002 started") {
		t.Fatalf("paused entries %+v", paused)
	}
}

// A quick task is recorded (seed 04: "Record as quick_task in ledger"):
// Claude Code wrote "progress: quick done: …" after a fix below the
// planning threshold; the ledger has the quick_task entry with what was
// done and by whom, the plan counts it, and it neither began the plan nor
// moved a task.
func TestCapture_aQuickTaskIsRecorded(t *testing.T) {
	f := copyPlanFrom(t, captureFocus)
	all := applyAll(t, f, assistantMessagesIn(t, captureFocus))
	o := outcomeOf(t, all, "progress: quick done: Fix the typo in CONTRIBUTING.md")
	if o.Verdict != Applied || len(o.Entries) != 1 {
		t.Fatalf("the quick task: %v %s %+v", o.Verdict, o.Reason, o.Entries)
	}
	e := o.Entries[0]
	if e.Type != EntryQuickTask || e.Description != "Fix the typo in CONTRIBUTING.md" || e.By != "2266b703-6c71-47e1-9789-b99dd61d4cbe" || e.Task != "" {
		t.Fatalf("the quick task's entry %+v", e)
	}
	if p := load(t, f); p.QuickTasks() != 1 || stateLine(p) != "3/3 complete" {
		t.Fatalf("quick tasks %d, plan %s", p.QuickTasks(), stateLine(p))
	}
}

// A quick task alone does not begin the plan: no scope.yaml is made.
func TestApply_aQuickTaskDoesNotBeginThePlan(t *testing.T) {
	f := copyPlanFrom(t, captureFocus)
	outs := apply(t, f, markers("s", 1, time.Time{}, "progress: quick done: Fix typo in README"))
	if verdicts(outs) != "applied" {
		t.Fatalf("verdicts %s", verdicts(outs))
	}
	if p := load(t, f); p.HasScope || p.QuickTasks() != 1 || ledgerTypes(p) != "quick_task" {
		t.Fatalf("scope %v, quick %d, ledger %s", p.HasScope, p.QuickTasks(), ledgerTypes(p))
	}
	off := int64(1)
	for text, why := range map[string]string{
		"progress: quick done":       "a quick task says what was done",
		"progress: quick start: x":   "a quick task is recorded once done",
		"progress: quick.S1 done: x": "a quick task is recorded once done",
	} {
		off++
		if o := apply(t, f, markers("s", off, time.Time{}, text)); o[0].Verdict != Rejected || !strings.Contains(o[0].Reason, why) {
			t.Errorf("%s: %v %s", text, o[0].Verdict, o[0].Reason)
		}
	}
}
