package normalize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// These tests check the output against each agent's own record of its
// list, read straight from the capture with encoding/json — not against
// anything this package produced.

type entry struct{ Text, Status string }

// listsOut is the sequence of main lists Run wrote.
func listsOut(t *testing.T, out []byte) [][]entry {
	t.Helper()
	var seq [][]entry
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		var ev TodoList
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		if ev.Type != TypeTodoList || ev.List != "" {
			continue
		}
		l := []entry{}
		for _, it := range ev.Items {
			l = append(l, entry{it.Text, string(it.Status)})
		}
		seq = append(seq, l)
	}
	return seq
}

// eachLine decodes every line of a capture into v and calls fn.
func eachLine[T any](t *testing.T, path string, fn func(T)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var v T
		if json.Unmarshal(sc.Bytes(), &v) == nil {
			fn(v)
		}
	}
}

// appendChanged adds l unless it repeats the last list: Run writes a list
// only when it changes.
func appendChanged(seq [][]entry, l []entry) [][]entry {
	if len(seq) > 0 && reflect.DeepEqual(seq[len(seq)-1], l) {
		return seq
	}
	return append(seq, l)
}

func TestRun_codexMatchesTheExecStream(t *testing.T) {
	for _, g := range []string{"codex-0.169.0/update-plan-resume/exec-json.stdout.jsonl", "codex-0.169.0/update-plan-edge-cases/exec-json.stdout.jsonl"} {
		path := filepath.Join(captured, g)
		var want [][]entry
		type line struct {
			Type string
			Item struct {
				Type  string
				Items []struct {
					Text      string
					Completed bool
				}
			}
		}
		eachLine(t, path, func(l line) {
			if l.Item.Type != "todo_list" {
				return
			}
			list := []entry{}
			for _, it := range l.Item.Items {
				st := "pending" // the boolean says only "not completed"
				if it.Completed {
					st = "completed"
				}
				list = append(list, entry{it.Text, st})
			}
			want = appendChanged(want, list)
		})
		out, _ := normalizeFile(t, path, "codex")
		if got := listsOut(t, out); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\ngot  %v\nwant %v", g, got, want)
		}
	}
}

func TestRun_claudeMatchesTodoWriteCalls(t *testing.T) {
	path := filepath.Join(captured, "claude-code-2.1.330/todowrite/stream-json.stdout.jsonl")
	type line struct {
		Type            string
		ParentToolUseID *string `json:"parent_tool_use_id"`
		Message         struct {
			Content []struct {
				Type, Name string
				Input      struct {
					Todos []struct{ Content, Status string }
				}
			}
		}
	}
	var want [][]entry
	eachLine(t, path, func(l line) {
		for _, c := range l.Message.Content {
			if l.Type == "assistant" && c.Type == "tool_use" && c.Name == "TodoWrite" {
				list := []entry{}
				for _, td := range c.Input.Todos {
					list = append(list, entry{td.Content, td.Status})
				}
				want = appendChanged(want, list)
			}
		}
	})
	if len(want) != 4 {
		t.Fatalf("the capture holds %d TodoWrite lists, the scenario scripted 4", len(want))
	}
	out, _ := normalizeFile(t, path, "claude")
	if got := listsOut(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}

func TestRun_geminiMatchesWriteTodosCalls(t *testing.T) {
	if adapters()["gemini"] == nil {
		t.Skip("adapter gemini is not built into this test yet (adapter/gemini still being written)")
	}
	path := filepath.Join(captured, "gemini-cli-0.61.0/write-todos/stream-json.stdout.jsonl")
	type line struct {
		ToolName   string `json:"tool_name"`
		Parameters struct {
			Todos []struct{ Description, Status string }
		}
	}
	var want [][]entry
	eachLine(t, path, func(l line) {
		if l.ToolName != "write_todos" {
			return
		}
		list := []entry{}
		for _, td := range l.Parameters.Todos {
			list = append(list, entry{td.Description, td.Status})
		}
		want = appendChanged(want, list)
	})
	out, _ := normalizeFile(t, path, "gemini")
	if got := listsOut(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
}
