package plan

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// exampleTask is the example task file agents are shown: comments, blank
// lines, a step in progress.
const exampleTask = `# docs/por/T003-dashboard/task.yaml

id: T003
name: User Dashboard
goal: Users can view their activity history and account stats
status: active    # planned | active | complete

steps:
  - id: S1
    name: Design API endpoints
    done: API spec documented in docs/api/dashboard.md
    status: complete

  - id: S2
    name: Implement backend endpoints
    done: All endpoints return correct data, tests pass
    status: in_progress

  - id: S3
    name: Build frontend components
    done: Dashboard page renders with real data
    status: pending

  - id: S4
    name: Integration testing
    done: E2E tests pass for all dashboard flows
    status: pending
`

func TestParse_exampleTask(t *testing.T) {
	task, err := Parse("task.yaml", []byte(exampleTask))
	if err != nil {
		t.Fatal(err)
	}
	want := []Step{
		{"S1", "Design API endpoints", "API spec documented in docs/api/dashboard.md", StepComplete},
		{"S2", "Implement backend endpoints", "All endpoints return correct data, tests pass", StepInProgress},
		{"S3", "Build frontend components", "Dashboard page renders with real data", StepPending},
		{"S4", "Integration testing", "E2E tests pass for all dashboard flows", StepPending},
	}
	if task.ID != "T003" || task.Name != "User Dashboard" || task.Status != TaskActive || !reflect.DeepEqual(task.Steps, want) {
		t.Fatalf("got %+v", task)
	}
	if cur := task.Current(); cur == nil || cur.ID != "S2" {
		t.Fatalf("current step %v, want S2", cur)
	}
	if d, n := task.Progress(); d != 1 || n != 4 || Percent(d, n) != 25 {
		t.Fatalf("progress %d/%d", d, n)
	}
}

func TestParse_missingStatusesDefault(t *testing.T) {
	task, err := Parse("task.yaml", []byte("id: T001\nname: n\ngoal: g\nsteps:\n  - {id: S1, name: a, done: b}\n  - {id: S2, name: c, done: d}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if task.Status != TaskPlanned || task.Steps[0].Status != StepPending || task.Steps[1].Status != StepPending {
		t.Fatalf("defaults: %+v", task)
	}
}

// Every problem of a file is reported, each at its line, in line order.
func TestParse_collectsEveryProblemWithItsLine(t *testing.T) {
	data := `id: T1
name: Broken
status: finished
steps:
  - id: S1
    name: a
    done: b
    status: doing
  - id: S
    name: c
    done: d
  - id: S1
    done: e
  - just text
name: again
`
	_, err := Parse("T001-broken/task.yaml", []byte(data))
	probs, ok := err.(Problems)
	if !ok {
		t.Fatalf("error %T %v, want Problems", err, err)
	}
	want := []string{
		`T001-broken/task.yaml:1: task id "T1" must be T<three digits>, like T001`,
		`T001-broken/task.yaml:1: missing goal`,
		`T001-broken/task.yaml:3: task status "finished" must be planned, active or complete`,
		`T001-broken/task.yaml:8: step status "doing" must be pending, in_progress or complete`,
		`T001-broken/task.yaml:9: step id "S" must be S<number>, like S1`,
		`T001-broken/task.yaml:12: missing name`,
		`T001-broken/task.yaml:12: duplicate step id "S1" (first at line 5)`,
		`T001-broken/task.yaml:14: a step is a mapping of id, name, done and status`,
		`T001-broken/task.yaml:15: duplicate key "name"`,
	}
	var got []string
	for _, p := range probs {
		got = append(got, p.String())
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("problems:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParse_problems(t *testing.T) {
	steps2 := "steps:\n  - {id: S1, name: a, done: b}\n  - {id: S2, name: c, done: d}\n"
	tests := []struct {
		name, data, want string
	}{
		{"empty file", "", "task.yaml: the file is empty"},
		{"not YAML", "id: [T001\n", "task.yaml:1: not valid YAML: did not find expected ',' or ']'"},
		{"a list, not a mapping", "- id: T001\n", "task.yaml:1: a task file is a mapping of id, name, goal, status and steps"},
		{"one step is too few", "id: T001\nname: n\ngoal: g\nsteps:\n  - {id: S1, name: a, done: b}\n", "task.yaml:5: a task has 2 to 8 steps, this one has 1"},
		{"nine steps are too many", "id: T001\nname: n\ngoal: g\nsteps:\n" + strings.Repeat("  - {id: S1, name: a, done: b}\n", 9), "task.yaml:5: a task has 2 to 8 steps, this one has 9"},
		{"steps not a list", "id: T001\nname: n\ngoal: g\nsteps: two\n", "task.yaml:4: steps must be a list of 2 to 8 steps"},
		{"empty goal", "id: T001\nname: n\ngoal:\n" + steps2, "task.yaml:3: goal is empty"},
		{"name is a list", "id: T001\nname: [a]\ngoal: g\n" + steps2, "task.yaml:2: name must be text, not a list"},
		{"empty status", "id: T001\nname: n\ngoal: g\nstatus:\n" + steps2, "task.yaml:4: task status is empty"},
		{"status in capitals", "id: T001\nname: n\ngoal: g\nstatus: Active\n" + steps2, `task.yaml:4: task status "Active" must be planned, active or complete`},
		{"four-digit id", "id: T0001\nname: n\ngoal: g\n" + steps2, `task.yaml:1: task id "T0001" must be T<three digits>, like T001`},
		{"too big", "# " + strings.Repeat("x", MaxFileSize), "task.yaml: the file has 1048578 bytes, more than the 1048576 a plan file may have"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task, err := Parse("task.yaml", []byte(tt.data))
			if task != nil || err == nil {
				t.Fatalf("got a task from %q", tt.data)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error:\n%v\nwant a line:\n%s", err, tt.want)
			}
		})
	}
}

// Tally changes the status words and nothing else: the comments, blank
// lines and key order the agent wrote stay byte for byte.
func TestRender_keepsEveryOtherByte(t *testing.T) {
	task, err := Parse("task.yaml", []byte(exampleTask))
	if err != nil {
		t.Fatal(err)
	}
	task.Steps[1].Status = StepComplete
	task.Steps[2].Status = StepInProgress
	out, err := task.render()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Replace(strings.Replace(exampleTask,
		"tests pass\n    status: in_progress", "tests pass\n    status: complete", 1),
		"real data\n    status: pending", "real data\n    status: in_progress", 1)
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestRender_keepsQuotingAndCRLF(t *testing.T) {
	data := "id: T001\r\nname: 'Café — 設計'  # a name\r\ngoal: g\r\nstatus: \"planned\"\r\nsteps:\r\n  - {id: S1, name: a, done: b, status: pending}\r\n  - {id: S2, name: c, done: d, status: 'pending'}\r\n"
	task, err := Parse("task.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	task.Status = TaskActive
	task.Steps[0].Status = StepInProgress
	task.Steps[1].Status = StepComplete
	out, err := task.render()
	if err != nil {
		t.Fatal(err)
	}
	want := "id: T001\r\nname: 'Café — 設計'  # a name\r\ngoal: g\r\nstatus: \"active\"\r\nsteps:\r\n  - {id: S1, name: a, done: b, status: in_progress}\r\n  - {id: S2, name: c, done: d, status: 'complete'}\r\n"
	if string(out) != want {
		t.Fatalf("got:\n%q\nwant:\n%q", out, want)
	}
}

// A status the agent left out is added after goal (task) or done (step):
// the tree is rewritten, comments and key order survive.
func TestRender_addsMissingStatusKeepingComments(t *testing.T) {
	data := `# The plan for the login work.
id: T002   # second task
name: Login Page
goal: Users can log in
# steps, in order
steps:
  - id: S1
    name: Form   # the HTML
    done: The form posts
  - id: S2
    name: Session
    done: A cookie is set
    owner: alice
`
	task, err := Parse("task.yaml", []byte(data))
	if err != nil {
		t.Fatal(err)
	}
	task.Status = TaskActive
	task.Steps[0].Status = StepInProgress
	out, err := task.render()
	if err != nil {
		t.Fatal(err)
	}
	want := `# The plan for the login work.
id: T002 # second task
name: Login Page
goal: Users can log in
status: active
# steps, in order
steps:
  - id: S1
    name: Form # the HTML
    done: The form posts
    status: in_progress
  - id: S2
    name: Session
    done: A cookie is set
    owner: alice
`
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestNewTaskFile_readsBackInTheLayoutAgentsAreShown(t *testing.T) {
	task := &Task{ID: "T004", Name: "User Profile", Goal: "Users can edit: name, avatar", Status: TaskPlanned, Dir: "T004-user-profile",
		Steps: []Step{{"S1", "Design", "Mock-up agreed", StepPending}, {"S2", "Build", "- the form saves\n- errors show", StepPending}}}
	out, err := task.render()
	if err != nil {
		t.Fatal(err)
	}
	want := `# Planned with tally task new. Tally keeps the status fields from the agents' progress markers.
id: T004
name: User Profile
goal: 'Users can edit: name, avatar'
status: planned

steps:
  - id: S1
    name: Design
    done: Mock-up agreed
    status: pending

  - id: S2
    name: Build
    done: |-
      - the form saves
      - errors show
    status: pending
`
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(exampleTask))
	f.Add([]byte("id: T001\r\nname: 'a'\r\ngoal: \"g\"\r\nstatus: planned\r\nsteps:\r\n  - {id: S1, name: a, done: b, status: pending}\r\n  - {id: S2, name: c, done: d}\r\n"))
	f.Add([]byte("id: T001\nname: n\ngoal: g\nsteps:\n  - &a {id: S1, name: a, done: b}\n  - *a\n"))
	f.Add([]byte("id: T001\nname: |\n  block\ngoal: >-\n  folded\nstatus: !!str active\nsteps:\n- id: S1\n  name: x\n  done: y\n  status: complete\n- id: S2\n  name: x\n  done: y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		task, err := Parse("task.yaml", data)
		if err != nil {
			// YAML breaks lines at \n, \r and \r\n, and at NEL, LS and PS.
			lines := 2 + strings.Count(string(data), "\n") + strings.Count(string(data), "\r") +
				strings.Count(string(data), "\u0085") + strings.Count(string(data), "\u2028") + strings.Count(string(data), "\u2029")
			for _, p := range err.(Problems) {
				if p.Line < 0 || p.Line > lines || p.Msg == "" {
					t.Fatalf("problem out of the file: %+v", p)
				}
			}
			return
		}
		// A valid task takes every status change and reads back as exactly
		// the task with the new statuses.
		task.Status = TaskComplete
		for i := range task.Steps {
			task.Steps[i].Status = StepComplete
		}
		out, err := task.render()
		if err != nil {
			t.Fatalf("render: %v", err)
		}
		if !sameTask(out, task) {
			t.Fatalf("rendered file does not read back:\n%s", out)
		}
	})
}

func FuzzParseScope(f *testing.F) {
	f.Add([]byte(scopeHeader + "original: 5\ncurrent: 6\n"))
	f.Add([]byte("original: -1\ncurrent: x\noriginal: 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, src, err := parseScope(ScopeFile, data)
		if err != nil {
			return
		}
		if s.Original < 0 || s.Current < 0 {
			t.Fatalf("negative count %+v", s)
		}
		next := Scope{Original: s.Original + 1, Current: s.Current + 2}
		if got, _, err := parseScope(ScopeFile, next.render(src)); err != nil || got != next {
			t.Fatalf("rewritten scope reads back as %+v, %v", got, err)
		}
	})
}

func FuzzLedger(f *testing.F) {
	f.Add([]byte(`{"type":"task_activated","at":"2024-01-16T10:05:00Z","task":"T001","key":"s:0:0"}` + "\n" +
		`{"type":"scope_change","from":5,"to":6,"added":["T006-mfa"]}` + "\n" + `{"type":"step_compl`))
	f.Add([]byte("not json\n\n{}\n{\"type\":\"x\",\"at\":\"nope\"}\n"))
	f.Add([]byte(`{"type":"step_blocked","at":"2024-01-16T10:05:00Z","task":"T001","step":"S2","reason":"r","key":"k"}` + "\n" +
		`{"type":"plan_created","at":"2024-01-16T10:00:00Z","total":2,"tasks":["T001-a",7]}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		l := newLedger()
		size, err := foldLedger(bytes.NewReader(data), LedgerFile, l)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(data, []byte("\n"))
		if l.lines != lines || size != int64(bytes.LastIndexByte(data, '\n')+1) {
			t.Fatalf("read %d lines, %d bytes of %d lines", l.lines, size, lines)
		}
		if l.entries+len(l.probs)+l.moreProbs > lines || len(l.probs) > maxLedgerProblems {
			t.Fatalf("%d entries and %d+%d problems from %d lines", l.entries, len(l.probs), l.moreProbs, lines)
		}
		p := &Plan{ledger: l, Folders: []string{"T001-a"}}
		p.Blocked("T001")
		p.QuickTasks()
		p.Started("T001")
		l.knownFolders()
	})
}
