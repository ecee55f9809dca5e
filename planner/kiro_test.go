package planner_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planner"
)

// TestViewFor_kiroSpecsAreThePlanOfAProjectWithNoPlanFolder: a project
// with no docs/por but Kiro specs shows them as its plan, follows their
// changes, and never gets a file of Tally's written among Kiro's.
func TestViewFor_kiroSpecsAreThePlanOfAProjectWithNoPlanFolder(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, plan.KiroSpecs, "health-check")
	if err := os.MkdirAll(spec, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(text string) {
		if err := os.WriteFile(filepath.Join(spec, plan.KiroTasks), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("- [x] 1. Add the handler\n- [-] 2. Test it\n")
	st := openStore(t, filepath.Join(t.TempDir(), "tally.db"))
	p := newPlanner(st, &recorder{})
	v, ok, err := p.ViewFor(dir)
	if !ok || err != nil || v.Total != 1 || v.Active == nil || v.Active.Name != "health-check" || v.Active.Done != 1 || v.Active.Total != 2 || v.Stage != planner.StageWorking {
		t.Fatalf("view %+v, %v, %v", v, ok, err)
	}
	sub := p.Subscribe(4)
	defer sub.Close()
	p.Look()
	write("- [x] 1. Add the handler\n- [x] 2. Test it\n- [ ] 3. Note it in the changelog\n")
	p.Look()
	select {
	case <-sub.C:
	default:
		t.Fatal("a change to tasks.md was not published")
	}
	if v, _, _ := p.ViewFor(dir); v.Active == nil || v.Active.Done != 2 || v.Active.Total != 3 {
		t.Errorf("after the change: %+v", v)
	}
	des, _ := os.ReadDir(filepath.Join(dir, plan.KiroSpecs))
	for _, de := range des {
		if de.Name() != "health-check" {
			t.Errorf("%s written among Kiro's specs", de.Name())
		}
	}
}
