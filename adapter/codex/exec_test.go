package codex

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// execEvent is the part of an exec --json line these tests read, decoded
// with encoding/json independently of the adapter.
type execEvent struct {
	Type     string `json:"type"`
	ThreadID string `json:"thread_id"`
	Item     struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		ItemType string `json:"item_type"`
		Items    []struct {
			Text      string `json:"text"`
			Completed bool   `json:"completed"`
		} `json:"items"`
	} `json:"item"`
}

func (e execEvent) todo() bool {
	return strings.HasPrefix(e.Type, "item.") && (e.Item.Type == "todo_list" || e.Item.ItemType == "todo_list")
}

// boolStep is a step as exec --json can say it.
type boolStep struct {
	Text string
	Done bool
}

func (e execEvent) steps() []boolStep {
	out := []boolStep{}
	for _, it := range e.Item.Items {
		out = append(out, boolStep{it.Text, it.Completed})
	}
	return out
}

func TestDecoder_ExecListAfterEachItem(t *testing.T) {
	for _, path := range execStreams(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			a := New(Options{Home: t.TempDir()})
			var thread string
			todos := 0
			st := lineByLine(t, a, tally.FileInfo{Path: path}, read(t, path), func(line []byte, st *tally.FileState) {
				var e execEvent
				if err := json.Unmarshal(line, &e); err != nil {
					t.Fatalf("fixture line: %v", err)
				}
				if e.Type == "thread.started" {
					thread = e.ThreadID
				}
				if !e.todo() {
					return
				}
				todos++
				l := st.Lists[""]
				if l == nil {
					t.Fatalf("no list after %s", line)
				}
				got := []boolStep{}
				for _, it := range l.Items() {
					got = append(got, boolStep{it.Title, it.Status == tally.StatusCompleted})
					if it.Status != tally.StatusCompleted && (!it.Lossy || it.Status != tally.StatusPending) {
						t.Errorf("unfinished item %q: status %v lossy %v, want pending and lossy", it.Title, it.Status, it.Lossy)
					}
					if it.Status == tally.StatusCompleted && it.Lossy {
						t.Errorf("completed item %q marked lossy", it.Title)
					}
				}
				if want := e.steps(); !reflect.DeepEqual(got, want) {
					t.Errorf("after %s %s:\ngot  %v\nwant %v", e.Type, e.Item.ID, got, want)
				}
			})
			if st.Session != thread {
				t.Errorf("session %q, want the thread id %q", st.Session, thread)
			}
			if todos > 0 && strings.Contains(string(read(t, path)), `"turn.completed"`) && st.Signal != tally.SignalWaiting {
				t.Errorf("signal after turn.completed = %v, want waiting", st.Signal)
			}
		})
	}
}

func TestDecoder_ExecLegacyItemType(t *testing.T) {
	path := filepath.Join(fixtures, "codex-exec/codex-pr4255-legacy-item_type.jsonl")
	a := New(Options{})
	st := lineByLine(t, a, tally.FileInfo{Path: path}, read(t, path), func([]byte, *tally.FileState) {})
	want := []step{{"Record initial two-step plan  now", "completed"}, {"Update progress to next step", "pending"}}
	if got := stepsOf(st.Lists[""]); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// The rollout and the exec stream of one run are two records of the same
// plan: each plan Codex accepted in the rollout is, with its statuses
// reduced to a boolean, the list exec --json announced at that point.
func TestDecoder_RolloutAgreesWithExecStream(t *testing.T) {
	for _, name := range []string{"update-plan-edge-cases", "update-plan-resume"} {
		t.Run(name, func(t *testing.T) {
			var announced [][]boolStep
			for _, path := range captures(t, "captured/codex-0.169.0/"+name+"/exec*-json.stdout.jsonl") {
				// exec-json before exec-resume-json: the order they ran.
				for _, line := range strings.Split(strings.TrimSpace(string(read(t, path))), "\n") {
					var e execEvent
					if err := json.Unmarshal([]byte(line), &e); err != nil {
						t.Fatal(err)
					}
					if e.todo() && e.Type != "item.completed" { // completed repeats the last update
						announced = append(announced, e.steps())
					}
				}
			}
			var applied [][]boolStep
			path := captures(t, "captured/codex-0.169.0/"+name+"/codex_home/sessions/*/*/*/rollout-*.jsonl")[0]
			for _, c := range checkRollout(t, path) {
				if !c.accepted {
					continue
				}
				s := []boolStep{}
				for _, it := range c.got {
					s = append(s, boolStep{it.Text, it.Status == "completed"})
				}
				applied = append(applied, s)
			}
			if !reflect.DeepEqual(applied, announced) {
				t.Errorf("rollout plans %v\nexec lists    %v", applied, announced)
			}
		})
	}
}
