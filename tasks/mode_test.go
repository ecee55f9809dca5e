package tasks_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/tasks"
)

func TestSwitchMode(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	t.Run("approving a list no one started is not found, and creates nothing", func(t *testing.T) {
		if _, err := tasks.SwitchMode(ctx, st, "nope", tasks.ModeExecution, t0); tally.ErrorCode(err) != tally.CodeNotFound {
			t.Fatalf("got %v, want CodeNotFound", err)
		}
		if _, err := st.TaskList(ctx, "nope"); tally.ErrorCode(err) != tally.CodeNotFound {
			t.Errorf("the refused approval left a list behind: %v", err)
		}
	})
	t.Run("plan mode may be asked for before an agent starts the list, and says it created it", func(t *testing.T) {
		sw, err := tasks.SwitchMode(ctx, st, "release", tasks.ModePlan, t0)
		l := sw.List
		if err != nil || l.Mode != tasks.ModePlan || !sw.Created || !l.CreatedAt.Equal(t0) {
			t.Fatalf("got mode %v created %v at %v err %v", l.Mode, sw.Created, l.CreatedAt, err)
		}
		rec, err := st.Record(ctx, tasks.SessionPrefix+"release")
		if err != nil {
			t.Fatal(err)
		}
		s := rec.Session(t0)
		if own := s.TaskList; own == nil || own.Name != "release" || !own.AwaitingApproval {
			t.Errorf("the list's session says %+v, want release awaiting approval", own)
		}
		if s.Activity == tally.ActivityNeedsInput {
			t.Errorf("an empty plan's session needs input (%q): there is nothing yet to approve", s.Title)
		}
	})
	t.Run("a plan with tasks needs input", func(t *testing.T) {
		if _, err := st.UpdateTaskList(ctx, "release", func(l *tasks.List) error {
			_, err := l.Create(tasks.CreateArgs{Subject: "Tag the release"}, t0)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		rec, err := st.Record(ctx, tasks.SessionPrefix+"release")
		if err != nil {
			t.Fatal(err)
		}
		if s := rec.Session(t0); s.Activity != tally.ActivityNeedsInput {
			t.Errorf("a drafted plan's session is %v, want needs input", s.Activity)
		}
	})
	t.Run("aPlanWaitingForApprovalNeedsYou", func(t *testing.T) {
		// The flag is what puts a session in the board's Needs-you strip
		// and what notifications are sent for.
		rec, err := st.Record(ctx, tasks.SessionPrefix+"release")
		if err != nil {
			t.Fatal(err)
		}
		if f := rec.Session(t0.Add(time.Minute)).Flags; !f.Has(tally.FlagNeedsInput) {
			t.Errorf("a plan waiting for approval has flags %q, want needs_input", f)
		}
	})
	t.Run("asking plan mode of a list that has it creates nothing", func(t *testing.T) {
		sw, err := tasks.SwitchMode(ctx, st, "release", tasks.ModePlan, t0)
		if err != nil || sw.Created || sw.Was != tasks.ModePlan {
			t.Fatalf("got %+v, %v", sw, err)
		}
	})
	t.Run("approving switches to execution and says it was a plan", func(t *testing.T) {
		t1 := t0.Add(time.Minute)
		sw, err := tasks.SwitchMode(ctx, st, "release", tasks.ModeExecution, t1)
		l, was := sw.List, sw.Was
		if err != nil || l.Mode != tasks.ModeExecution || was != tasks.ModePlan || !l.UpdatedAt.Equal(t1) {
			t.Fatalf("got mode %v was %v updated %v err %v", l.Mode, was, l.UpdatedAt, err)
		}
		rec, err := st.Record(ctx, tasks.SessionPrefix+"release")
		if err != nil {
			t.Fatal(err)
		}
		if own := rec.Session(t1).TaskList; own == nil || own.AwaitingApproval {
			t.Errorf("the approved list's session says %+v, want no approval awaited", own)
		}
	})
	t.Run("approving twice changes nothing, not even the time", func(t *testing.T) {
		sw, err := tasks.SwitchMode(ctx, st, "release", tasks.ModeExecution, t0.Add(time.Hour))
		l, was := sw.List, sw.Was
		if err != nil || was != tasks.ModeExecution || !l.UpdatedAt.Equal(t0.Add(time.Minute)) {
			t.Fatalf("got was %v updated %v err %v", was, l.UpdatedAt, err)
		}
	})
}
