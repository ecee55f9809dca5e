package hermes

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/detect"
)

// TestSessions_Built checks state.db built as hermes_state.py lays it out
// (sessions with parent_session_id chains; messages in OpenAI chat form, a
// todo call in an assistant row's tool_calls and its result in the tool
// row that names its tool_call_id). Expected lists follow todo_tool.py's
// rules for the calls in the script, not the code.
func TestSessions_Built(t *testing.T) {
	tests := []struct {
		name, script, session string
		want                  []tally.Item
		title                 string
		weak                  bool
		project               string
		signal                tally.Signal
		last                  time.Time
	}{
		{
			name:    "a compression chain is one session; results win over arguments; an unanswered merge is applied from its arguments",
			script:  "built-state-v2.sql",
			session: "20260105_100000_a1b2c3",
			want: []tally.Item{
				// Order and id 4's pending come from call_2's result: the
				// arguments said "blocked", which Hermes refused.
				todo("2", "Write tests", tally.StatusCompleted),
				todo("1", "Read the parser", tally.StatusCompleted),
				todo("3", "Ship it", tally.StatusCancelled),
				todo("4", "Update the docs", tally.StatusPending),
			},
			title:  "Refactor the parser …", // the prompt has more lines: tally.PromptTitle says so
			weak:   true,
			signal: tally.SignalWaiting,
			last:   time.Unix(1767609200, 0),
		},
		{
			name:    "a branch is its own session; a failed call changes nothing; duplicate ids collapse; a refused status is pending with the word kept",
			script:  "built-state-v2.sql",
			session: "20260105_110000_0a0b0c",
			want: []tally.Item{
				raw(todo("y", "Review", tally.StatusPending), "done"),
				todo("x", "New x", tally.StatusInProgress),
				todo("?", "(no description)", tally.StatusCompleted),
			},
			title:  "Try the other approach",
			weak:   true,
			signal: tally.SignalEnded,
			last:   time.Unix(1767611400, 0),
		},
		{
			name:    "a later schema gives title and cwd; a status Hermes never returned stays unknown and visible",
			script:  "built-state-later.sql",
			session: "20260301_090000_feed01",
			want: []tally.Item{
				todo("p", "Phase split", tally.StatusInProgress),
				todo("p.1", "Lexer", tally.StatusCompleted),
				todo("p.2", "Grammar", tally.StatusInProgress),
				raw(todo("q", "Benchmarks", tally.StatusUnknown), "deferred"),
			},
			title:   "Parser refactor",
			project: "/home/dev/parser",
			signal:  tally.SignalWorking,
			last:    time.Unix(1772355800, 0),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path, _ := buildDB(t, tt.script)
			all := sessions(t, path)
			evs, ok := all[tt.session]
			if !ok {
				t.Fatalf("no session %s in %v", tt.session, keys(all))
			}
			st := fold(tt.session, evs)
			if got := items(st); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("list:\n got %+v\nwant %+v", got, tt.want)
			}
			if st.Title != tt.title || st.TitleWeak != tt.weak {
				t.Errorf("title = %q (weak %v), want %q (weak %v)", st.Title, st.TitleWeak, tt.title, tt.weak)
			}
			if st.Project != tt.project {
				t.Errorf("project = %q, want %q", st.Project, tt.project)
			}
			if st.Signal != tt.signal {
				t.Errorf("signal = %v, want %v", st.Signal, tt.signal)
			}
			if !st.LastAt.Equal(tt.last) {
				t.Errorf("last activity = %v, want %v", st.LastAt, tt.last)
			}
		})
	}
}

func TestSessions_ChainIsOneSession(t *testing.T) {
	path, _ := buildDB(t, "built-state-v2.sql")
	got := keys(sessions(t, path))
	want := []string{"20260105_100000_a1b2c3", "20260105_110000_0a0b0c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sessions = %v, want %v (the compressed child folded into its root)", got, want)
	}
}

// TestSessions_ToolCallLinkage: a result is taken for the call whose id it
// answers, and a result answering another tool is not a todo list.
func TestSessions_ToolCallLinkage(t *testing.T) {
	path, _ := buildDB(t, "built-state-v2.sql")
	evs := sessions(t, path)["20260105_100000_a1b2c3"]
	var ids []string
	for _, ev := range evs {
		if ev.Kind != tally.EventMeta {
			ids = append(ids, kindName[ev.Kind]+":"+ev.ToolUseID)
		}
	}
	want := []string{"snapshot:call_1", "snapshot:call_2", "snapshot:call_3", "merge:call_4"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("events = %v, want %v", ids, want)
	}
}

// TestSessions_SeesWALWrites writes to the database while a reader has it
// open, as Hermes does, and checks the next read sees the new call.
func TestSessions_SeesWALWrites(t *testing.T) {
	path, w := buildDB(t, "built-state-later.sql")
	a := New(Options{Home: filepath.Dir(path)})
	fiDB, _ := a.Match(filepath.Dir(path), path)
	fiWAL, ok := a.Match(filepath.Dir(path), path+"-wal")
	if !ok || fiWAL != fiDB {
		t.Fatalf("Match(-wal) = %+v, %v; want the database's %+v", fiWAL, ok, fiDB)
	}
	before := items(fold("s", sessions(t, path)["20260301_090000_feed01"]))
	if len(before) != 4 {
		t.Fatalf("before: %d items", len(before))
	}
	if _, err := w.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		('20260301_090000_feed01', 'tool', '{"todos": [{"id": "p", "content": "Phase split", "status": "completed"}], "revision": 8, "summary": {}}', 'call_p3', NULL, 'todo_list', 1772355900.5),
		('20260301_090000_feed01', 'assistant', NULL, NULL, '[{"id": "call_p3", "type": "function", "function": {"name": "todo_list", "arguments": "{}"}}]', NULL, 1772355900.0)`); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path + "-wal"); err != nil || fi.Size() == 0 {
		t.Fatalf("the write did not go to the WAL: %v", err)
	}
	after := items(fold("s", sessions(t, path)["20260301_090000_feed01"]))
	want := []tally.Item{todo("p", "Phase split", tally.StatusCompleted)}
	if !reflect.DeepEqual(after, want) {
		t.Errorf("after a write: %+v, want %+v", after, want)
	}
}

func TestSessions_NotADatabase(t *testing.T) {
	dir := t.TempDir()
	cases := map[string][]byte{
		"garbage":          []byte("this is not sqlite\x00\x01\x02 at all, just some bytes that go on for a while......."),
		"empty":            {},
		"truncated header": []byte("SQLite format 3\x00\x10\x00"),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, name, dbName)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := New(Options{Home: dir}).ReadDatabase(context.Background(), path)
			if err == nil {
				t.Fatal("ReadDatabase on a non-database: no error")
			}
			if c := tally.ErrorCode(err); c != tally.CodeInvalid {
				t.Errorf("code = %v (%v), want invalid", c, err)
			}
		})
	}
	t.Run("missing file", func(t *testing.T) {
		_, _, err := New(Options{Home: dir}).ReadDatabase(context.Background(), filepath.Join(dir, "nope", dbName))
		if err == nil {
			t.Fatal("no error for a missing database")
		}
	})
	t.Run("another program's database", func(t *testing.T) {
		fx.Invalid(t, "built-state-later.sql", "DROP TABLE messages")
	})
}

var kindName = map[tally.EventKind]string{tally.EventSnapshot: "snapshot", tally.EventMerge: "merge"}

func keys(m map[string][]tally.Event) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sortStrings(out)
	return out
}

// TestSessions_RecentToolCalls: every tool call of the last half hour
// before the newest message is fingerprinted, in order among the todo
// calls; older calls are history and not read.
func TestSessions_RecentToolCalls(t *testing.T) {
	path, w := buildDB(t, "built-state-later.sql")
	const sid = "20260301_090000_feed01"
	var newest float64
	if err := w.QueryRow(`SELECT max(timestamp) FROM messages`).Scan(&newest); err != nil {
		t.Fatal(err)
	}
	call := func(id, cmd string) string {
		return `[{"id": "` + id + `", "type": "function", "function": {"name": "terminal", "arguments": "{\"command\": \"` + cmd + `\"}"}}]`
	}
	for i, c := range []struct {
		at      float64
		id, cmd string
	}{
		{newest - 3600, "old", "make"}, // an hour before: history
		{newest + 10, "t1", "make"},
		{newest + 20, "t2", "make"},
		{newest + 30, "t3", "make test"},
	} {
		if _, err := w.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES (?, 'assistant', NULL, NULL, ?, NULL, ?)`,
			sid, call(c.id, c.cmd), c.at); err != nil {
			t.Fatalf("row %d: %v", i, err)
		}
	}
	var fps []uint64
	var times []time.Time
	for _, ev := range sessions(t, path)[sid] {
		if ev.Kind == tally.EventToolCall {
			fps, times = append(fps, ev.Call), append(times, ev.At)
		}
	}
	make := detect.Fingerprint("terminal", []byte(`"{\"command\": \"make\"}"`))
	n := 0
	for _, fp := range fps {
		if fp == make {
			n++
		}
	}
	if n != 2 {
		t.Errorf("make called %d times, want the two of the last half hour", n)
	}
	if k := len(fps); k < 3 || fps[k-3] != make || fps[k-2] != make || fps[k-1] == make {
		t.Fatalf("fingerprints %x, want them to end with make twice (%x), then another", fps, make)
	}
	if k := len(times); !times[k-3].Equal(unixTime(newest+10)) || !times[k-1].Equal(unixTime(newest+30)) {
		t.Errorf("times %v, want each row's, in order", times[k-3:])
	}
}
