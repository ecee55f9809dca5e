package toolrun

import (
	"fmt"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

func TestLabel_namesWhatTheCallDoesAsAStepInProgress(t *testing.T) {
	for _, c := range []struct {
		name, args, title, active string
	}{
		{"Bash", `{"command":"go test ./..."}`, "Run tests", "Running tests"},
		{"run_shell_command", `{"command":"npm run lint\nnpm run build"}`, "Run npm run lint", "Running npm run lint"},
		{"exec", `{"command":"echo hi","title":"Print a greeting"}`, "Print a greeting", "Print a greeting"},
		{"Edit", `{"file_path":"/src/api/api.go","old_string":"a"}`, "Edit api.go", "Editing api.go"},
		{"write_file", `{"file_path":"hello.txt"}`, "Write hello.txt", "Writing hello.txt"},
		{"view", `{"path":"/repo/README.md"}`, "Read README.md", "Reading README.md"},
		{"grep_search", `{"pattern":"TODO"}`, "Search TODO", "Searching TODO"},
		{"TodoWrite", `{"todos":[]}`, "Update the list", "Updating the list"},
		{"mcp__linear__get_issue", `{}`, "Call mcp__linear__get_issue", "Calling mcp__linear__get_issue"},
		{"Bash", `not json`, "Run a command", "Running a command"},
		{"sql", `{"description":"Start greet todo","query":"UPDATE todos …"}`, "Start greet todo", "Start greet todo"},
	} {
		title, active := Label(c.name, InputOf([]byte(c.args)))
		if title != c.title || active != c.active {
			t.Errorf("%s %s: %q / %q, want %q / %q", c.name, c.args, title, active, c.title, c.active)
		}
	}
}

func fold(evs []tally.Event) tally.Session {
	st := &tally.FileState{Session: "s", Agent: "x"}
	for _, ev := range evs {
		st.Apply(ev)
	}
	r := tally.Merge([]*tally.FileState{st})
	return r.Session(time.Now())
}

func TestRuntime_aSessionWithNoChecklistShowsTheCallRunningAndTheCounts(t *testing.T) {
	var evs []tally.Event
	emit := func(ev tally.Event) { evs = append(evs, ev) }
	at := time.Date(2026, 11, 26, 8, 0, 0, 0, time.UTC)
	Start(emit, "c1", "Edit", Input{Path: "api.go"}, at)
	End(emit, "c1", false, at)
	Start(emit, "c2", "Bash", Input{Command: "go vet"}, at)
	End(emit, "c2", true, at)
	Start(emit, "c3", "Bash", Input{Command: "go test ./api"}, at)
	s := fold(evs)
	if len(s.Items) != 0 {
		t.Errorf("the model's list holds the calls: %+v", s.Items)
	}
	want := tally.RuntimeProgress{Calls: 3, Failed: 1, Running: 1, Current: "Running tests", Last: "Running tests"}
	if s.Runtime == nil || *s.Runtime != want {
		t.Fatalf("runtime = %+v, want %+v", s.Runtime, want)
	}
	if s.ListTools == tally.ListToolsOffered {
		t.Error("tool calls made the session look as if it kept a list")
	}
}

func TestRuntime_aLongSessionKeepsTheNewestCallsAndCountsThemAll(t *testing.T) {
	var evs []tally.Event
	emit := func(ev tally.Event) { evs = append(evs, ev) }
	const n = 500
	for i := range n {
		id := fmt.Sprint(i)
		Start(emit, id, "Read", Input{Path: id + ".go"}, time.Time{})
		End(emit, id, i%50 == 0, time.Time{})
	}
	Start(emit, "last", "Bash", Input{Command: "make"}, time.Time{})
	s := fold(evs)
	want := tally.RuntimeProgress{Calls: n + 1, Failed: n / 50, Running: 1, Current: "Running make", Last: "Running make"}
	if *s.Runtime != want {
		t.Errorf("runtime = %+v, want %+v", *s.Runtime, want)
	}
	var items int
	for _, sub := range s.SubAgents {
		if sub.ID == tally.RuntimeList {
			items = len(sub.Items)
		}
	}
	if items != tally.MaxRuntime+1 {
		t.Errorf("the runtime list holds %d calls, want the running one and the newest %d", items, tally.MaxRuntime)
	}
}

func FuzzInputOf(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, `{"file_path":"a\u00e9.go","description":"x"}`, `[]`, `{"path":1}`, ``} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := InputOf(b)
		title, active := Label("Bash", in)
		if title == "" || active == "" {
			t.Fatal("empty label")
		}
		Label("Edit", in)
	})
}
