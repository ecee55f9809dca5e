package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

func TestTasks_ApproveAndShow(t *testing.T) {
	st := newStore(t)
	if code, out, errOut := run(t, st, nil, "tasks"); code != ExitOK || !strings.Contains(out, "No task lists yet") {
		t.Fatalf("empty: %d %q %q", code, out, errOut)
	}
	// Approving creates nothing, and says how a list in plan mode is made.
	if code, _, errOut := run(t, st, nil, "tasks", "approve", "nope"); code != ExitNotFound || !strings.Contains(errOut, "'tally tasks plan nope' makes one") {
		t.Fatalf("approving a list nobody made: exit %d %s", code, errOut)
	}
	// Plan mode may be asked for before an agent starts the list: that
	// creates it, and says so, so that a mistyped name is seen at once.
	if code, out, _ := run(t, st, nil, "tasks", "plan", "release"); code != ExitOK || !strings.Contains(out, "release created, in plan mode") {
		t.Fatalf("plan: %d %q", code, out)
	}
	if code, out, _ := run(t, st, nil, "tasks", "plan", "release"); code != ExitOK || !strings.Contains(out, "already in plan mode") {
		t.Fatalf("plan again: %d %q", code, out)
	}
	// An agent drafts the plan; starting work is refused until approval.
	ctx := context.Background()
	start := func() error {
		_, err := st.UpdateTaskList(ctx, "release", func(l *tasks.List) error {
			if len(l.Tasks) == 0 {
				if _, err := l.Create(tasks.CreateArgs{Subject: "Tag the release"}, fixedNow); err != nil {
					return err
				}
			}
			s := tally.StatusInProgress
			_, err := l.Update(tasks.UpdateArgs{ID: "1", Status: &s}, fixedNow)
			return err
		})
		return err
	}
	if err := start(); tally.ErrorCode(err) != tally.CodeConflict {
		t.Fatalf("start in plan mode: %v", err)
	}
	if _, err := st.UpdateTaskList(ctx, "release", func(l *tasks.List) error {
		_, err := l.Create(tasks.CreateArgs{Subject: "Tag the release"}, fixedNow)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, st, nil, "tasks", "release")
	if code != ExitOK || !strings.Contains(out, "waiting for approval") || !strings.Contains(out, "Tag the release") {
		t.Fatalf("show in plan mode: %d\n%s", code, out)
	}
	if code, out, _ := run(t, st, nil, "tasks", "approve", "release"); code != ExitOK || !strings.Contains(out, "approved") {
		t.Fatalf("approve: %d %q", code, out)
	}
	if err := start(); err != nil {
		t.Fatalf("start after approval: %v", err)
	}
	code, out, _ = run(t, st, nil, "tasks")
	if code != ExitOK || !strings.Contains(out, "release") || !strings.Contains(out, "execution") || !strings.Contains(out, "0/1") {
		t.Fatalf("list of lists:\n%s", out)
	}
	if code, out, _ := run(t, st, nil, "tasks", "release", "--json"); code != ExitOK || !strings.Contains(out, `"mode": "execution"`) {
		t.Fatalf("--json:\n%s", out)
	}
	if code, _, _ := run(t, st, nil, "tasks", "bad name"); code != ExitUsage {
		t.Fatalf("bad list name: exit %d", code)
	}
}
