package gemini

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// The tests here check the decoder against the agent's own record: every
// expected list is read from the fixture with encoding/json, independently
// of the decoder.

type rawTodo struct {
	Description string `json:"description"`
	Status      string `json:"status"`
}

func wants(todos []rawTodo) []want {
	out := []want{}
	for _, t := range todos {
		out = append(out, want{t.Description, t.Status})
	}
	return out
}

// TestStreamJSON_ListFollowsEveryWriteTodos: after each successful
// tool_result of a write_todos call, the list is that call's parameters.
func TestStreamJSON_ListFollowsEveryWriteTodos(t *testing.T) {
	p := filepath.Join(captured, "write-todos", "stream-json.stdout.jsonl")
	f := newFolder(t, tally.FileInfo{Path: p, Session: "s"})
	calls := map[string][]rawTodo{}
	checked := 0
	sawCancelled := false
	for _, line := range adaptertest.Lines(read(t, p)) {
		if d := f.Feed(line); len(d) > 0 {
			t.Fatalf("diagnostics on a real capture: %v", d)
		}
		var ev struct {
			Type, ToolName, ToolID, Status string
			Parameters                     struct{ Todos []rawTodo }
		}
		raw := map[string]json.RawMessage{}
		if err := json.Unmarshal(line, &raw); err != nil {
			t.Fatal(err)
		}
		_ = json.Unmarshal(line, &ev)
		_ = json.Unmarshal(raw["tool_name"], &ev.ToolName)
		_ = json.Unmarshal(raw["tool_id"], &ev.ToolID)
		switch ev.Type {
		case "tool_use":
			if ev.ToolName == "write_todos" {
				calls[ev.ToolID] = ev.Parameters.Todos
			}
		case "tool_result":
			todos, ok := calls[ev.ToolID]
			if !ok || ev.Status != "success" {
				continue
			}
			sameItems(t, "after "+ev.ToolID, f.List(""), wants(todos))
			for _, td := range todos {
				sawCancelled = sawCancelled || td.Status == "cancelled"
			}
			checked++
		}
	}
	if checked != 4 || !sawCancelled {
		t.Fatalf("checked %d write_todos calls (cancelled seen: %v), want the capture's 4 with a cancelled item", checked, sawCancelled)
	}
	if f.St.Title == "" || !strings.HasPrefix("Create greet.py with a greet(name) function, add a test and update the README. Track your steps.", strings.TrimSuffix(f.St.Title, "…")) {
		t.Errorf("title %q, want the prompt", f.St.Title)
	}
	if f.St.Signal != tally.SignalWaiting {
		t.Errorf("signal after the final result = %v, want waiting", f.St.Signal)
	}
}

type rawCall struct {
	ID            string
	Name          string
	Status        string
	Args          struct{ Todos []rawTodo }
	ResultDisplay json.RawMessage
}

type rawMessage struct {
	ID        string
	Type      string
	ToolCalls []rawCall
}

// TestChat_ListFollowsEveryWriteTodos: in the chat records of both the
// headless and the ACP runs, after the line where a write_todos call first
// appears the list is that call's args; and the record's
// resultDisplay.todos says the same.
func TestChat_ListFollowsEveryWriteTodos(t *testing.T) {
	for _, scen := range []string{"write-todos", "acp-write-todos"} {
		paths, _ := filepath.Glob(filepath.Join(captured, scen, "gemini_home/tmp/*/chats/session-*.jsonl"))
		total := 0
		for _, p := range paths {
			t.Run(scen+"/"+filepath.Base(p), func(t *testing.T) {
				f := newFolder(t, tally.FileInfo{Path: p, Session: "s"})
				seen := map[string]bool{}
				for _, line := range adaptertest.Lines(read(t, p)) {
					if d := f.Feed(line); len(d) > 0 {
						t.Fatalf("diagnostics on a real capture: %v", d)
					}
					var m rawMessage
					if json.Unmarshal(line, &m) != nil || m.ID == "" {
						continue
					}
					var last *rawCall
					for i, c := range m.ToolCalls {
						if c.Name != "write_todos" || seen[c.ID] {
							continue
						}
						seen[c.ID] = true
						last = &m.ToolCalls[i]
						var rd struct{ Todos []rawTodo }
						if err := json.Unmarshal(c.ResultDisplay, &rd); err != nil || !reflect.DeepEqual(rd.Todos, c.Args.Todos) {
							t.Errorf("call %s: resultDisplay.todos %v disagrees with args.todos %v", c.ID, rd.Todos, c.Args.Todos)
						}
					}
					if last != nil {
						sameItems(t, "after "+last.ID, f.List(""), wants(last.Args.Todos))
					}
				}
				total += len(seen)
			})
		}
		if total != 4 {
			t.Errorf("%s: %d write_todos calls checked, want 4", scen, total)
		}
	}
}

// TestChat_SessionFacts: title, project and activity of the headless run,
// each checked against the record itself.
func TestChat_SessionFacts(t *testing.T) {
	home := filepath.Join(captured, "write-todos", "gemini_home")
	a := New(Options{Home: home})
	paths, _ := filepath.Glob(filepath.Join(home, "tmp/work/chats/session-*.jsonl"))
	if len(paths) != 1 {
		t.Fatalf("want one chat record, got %v", paths)
	}
	fi, ok := a.Match(a.Roots()[0], paths[0])
	if !ok {
		t.Fatalf("Match = %+v, %v", fi, ok)
	}
	data := read(t, paths[0])
	st := foldAll(t, a, fi, data)
	ls := adaptertest.Lines(data)
	var header struct{ SessionID string }
	_ = json.Unmarshal(ls[0], &header)
	if fi.Session != header.SessionID || st.Session != header.SessionID {
		t.Errorf("session %q (folded %q), the record's header says %q", fi.Session, st.Session, header.SessionID)
	}
	// The session context the CLI recorded names the workspace.
	if !strings.Contains(string(ls[1]), `Workspace Directories:**\n  - `+st.Project+`\n`) || st.Project == "" {
		t.Errorf("project %q is not the recorded workspace", st.Project)
	}
	if !strings.Contains(string(data), `"text":"`+strings.TrimSuffix(st.Title, "…")) {
		t.Errorf("title %q is not the typed prompt", st.Title)
	}
	var last struct {
		Set struct{ LastUpdated string } `json:"$set"`
	}
	_ = json.Unmarshal(ls[len(ls)-1], &last)
	if got := st.LastAt.UTC().Format("2006-01-02T15:04:05.000Z"); got != last.Set.LastUpdated {
		t.Errorf("last activity %s, want the record's lastUpdated %s", got, last.Set.LastUpdated)
	}
	if st.Signal != tally.SignalWaiting {
		t.Errorf("signal %v after the final answer, want waiting", st.Signal)
	}
}

func foldAll(t testing.TB, a *Adapter, fi tally.FileInfo, data []byte) *tally.FileState {
	t.Helper()
	st := &tally.FileState{Path: fi.Path, Agent: a.Agent(), Session: fi.Session}
	dec, err := a.NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Layout == tally.LayoutWhole {
		st.FeedWhole(dec, data)
	} else if _, d := st.Feed(dec, data); len(d) > 0 {
		t.Fatalf("diagnostics: %v", d)
	}
	return st
}
