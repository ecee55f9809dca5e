package plan

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// kiroProject copies testdata/kiro/specs into a project's .kiro/specs.
func kiroProject(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	src := "testdata/kiro/specs"
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		dst := filepath.Join(root, KiroSpecs, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

type kiroStep struct {
	ID, Name string
	Status   StepStatus
}

// TestLoadKiro_eachSpecIsATaskItsTopLevelItemsTheSteps: a spec with a
// tasks.md is a task named by its folder, its top-level checklist items
// the steps ([x] complete, [-] in progress, [ ] pending; sub-tasks folded
// into their parent), complete when every step is, active once one is
// begun; a spec without tasks.md is no task yet; nothing is writable.
func TestLoadKiro_eachSpecIsATaskItsTopLevelItemsTheSteps(t *testing.T) {
	p, err := LoadKiro(kiroProject(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tasks) != 2 || !reflect.DeepEqual(p.Folders, []string{"health-check", "user-auth"}) {
		t.Fatalf("tasks %d, folders %v", len(p.Tasks), p.Folders)
	}
	hc, ua := p.Tasks[0], p.Tasks[1]
	if hc.ID != "T001" || hc.Name != "health-check" || hc.Status != TaskComplete {
		t.Errorf("health-check: %+v", hc)
	}
	var got []kiroStep
	for _, s := range ua.Steps {
		got = append(got, kiroStep{s.ID, s.Name, s.Status})
	}
	want := []kiroStep{
		{"S1", "Set up the authentication module", StepComplete},
		{"S2", "Implement the login flow", StepInProgress},
		{"S3", "Add logout and session expiry", StepPending},
	}
	if !reflect.DeepEqual(got, want) || ua.ID != "T002" || ua.Status != TaskActive {
		t.Errorf("user-auth: %s %s %v\nsteps %v\nwant  %v", ua.ID, ua.Name, ua.Status, got, want)
	}
	if done, total := p.Progress(); done != 1 || total != 2 {
		t.Errorf("progress %d/%d, want 1/2 (one spec done)", done, total)
	}
	if p.Writable() == nil {
		t.Error("a Kiro plan is writable: Tally must not write Kiro's files")
	}
}

func TestLoadKiro_aLinkedTasksFileIsRefused(t *testing.T) {
	root := kiroProject(t)
	target := filepath.Join(t.TempDir(), "elsewhere.md")
	if err := os.WriteFile(target, []byte("- [x] 1. Not Kiro's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tasks := filepath.Join(root, KiroSpecs, "health-check", KiroTasks)
	os.Remove(tasks)
	if err := os.Symlink(target, tasks); err != nil {
		t.Fatal(err)
	}
	p, err := LoadKiro(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Tasks) != 1 || p.Tasks[0].Name != "user-auth" || len(p.Problems) != 1 {
		t.Errorf("tasks %+v, problems %v: want the linked tasks.md refused and said", p.Tasks, p.Problems)
	}
}

func TestLoadKiro_noSpecsIsNotFound(t *testing.T) {
	if _, err := LoadKiro(t.TempDir()); err == nil {
		t.Error("a project without .kiro/specs has a Kiro plan")
	}
}

func FuzzKiroTask(f *testing.F) {
	for _, p := range []string{"testdata/kiro/specs/user-auth/tasks.md", "testdata/kiro/specs/health-check/tasks.md"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(b))
	}
	f.Add("- [")
	f.Fuzz(func(t *testing.T, text string) {
		task := kiroTask("s", text)
		for _, s := range task.Steps {
			if s.Name == "" || s.ID == "" {
				t.Fatalf("a step without name or id: %+v", s)
			}
		}
	})
}

// TestKiroTask_anOpenOptionalItemDoesNotKeepTheSpecOpen: an item marked
// optional ("- [ ]* …") is work the spec is finished without: open, it is
// no step, so a spec whose other items are done is complete; done, it is
// a step like any other, its star and number not in its name.
func TestKiroTask_anOpenOptionalItemDoesNotKeepTheSpecOpen(t *testing.T) {
	open := kiroTask("s", "- [x] 1. Build it\n- [ ]* 2. Write the property tests\n  - [ ]* 2.1 Fuzz the parser\n")
	if open.Status != TaskComplete || len(open.Steps) != 1 || open.Steps[0].Name != "Build it" {
		t.Errorf("open optional item: status %v steps %+v; want complete, one step", open.Status, open.Steps)
	}
	done := kiroTask("s", "- [x] 1. Build it\n- [x]* 2. Write the property tests\n")
	if done.Status != TaskComplete || len(done.Steps) != 2 || done.Steps[1].Name != "Write the property tests" {
		t.Errorf("done optional item: status %v steps %+v", done.Status, done.Steps)
	}
}
