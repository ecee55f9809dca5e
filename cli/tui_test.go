package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/tasks"
)

func TestRun_tuiNeedsATerminal(t *testing.T) {
	code, out, errOut := run(t, newStore(t), nil, "tui")
	if code == ExitOK || out != "" || !strings.Contains(errOut, "needs a terminal") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// TestTUI_approveIsTasksApprove: A in the dashboard switches a plan to
// execution through the same code as `tally tasks approve`, and the list's
// session stops waiting for the user.
func TestTUI_approveIsTasksApprove(t *testing.T) {
	st := newStore(t)
	ctx := context.Background()
	if code, _, errOut := run(t, st, nil, "tasks", "plan", "release"); code != ExitOK {
		t.Fatalf("tasks plan: exit %d: %s", code, errOut)
	}
	l, err := st.TaskList(ctx, "release")
	if err != nil || l.Mode != tasks.ModePlan {
		t.Fatalf("list %+v, %v", l, err)
	}
	if l, err = st.UpdateTaskList(ctx, "release", func(l *tasks.List) error {
		_, err := l.Create(tasks.CreateArgs{Subject: "Tag the release"}, fixedNow)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	rec := l.Record()
	if rec.Signal != tally.SignalAsking {
		t.Fatalf("a drafted plan's session signals %v, want asking", rec.Signal)
	}
	a := &app{env: testEnv(st, &syncBuffer{}, &syncBuffer{}, nil)}
	approve := a.approver(st)
	if approve == nil {
		t.Fatal("the SQLite store keeps task lists, yet A approves nothing")
	}
	if err := approve(ctx, "release"); err != nil {
		t.Fatal(err)
	}
	l, _ = st.TaskList(ctx, "release")
	if l.Mode != tasks.ModeExecution {
		t.Errorf("mode %v after A, want execution", l.Mode)
	}
	if err := approve(ctx, "nothing"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("approving a list that does not exist: %v", err)
	}
}
