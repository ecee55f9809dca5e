package claude

import (
	"reflect"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

func task(id, title, desc, activeForm string, st tally.Status) tally.Item {
	return tally.Item{ID: id, Title: title, Description: desc, ActiveForm: activeForm, Status: st, Source: tally.SourceTask}
}

func todo(title, activeForm string, st tally.Status) tally.Item {
	return tally.Item{Title: title, ActiveForm: activeForm, Status: st, Source: tally.SourceTodo}
}

// TestDecoder_Built folds the hand-built transcripts in testdata (shaped
// after the Claude Code section of docs/formats.md) and checks the rules of
// that section that the real captures do not all exercise. Expected lists are written from
// the rules, not from the decoder's output.
func TestDecoder_Built(t *testing.T) {
	withBlocks := func(it tally.Item, blocks, blockedBy []string, owner string) tally.Item {
		it.Blocks, it.BlockedBy, it.Owner = blocks, blockedBy, owner
		return it
	}
	unknown := task("1", "Design v2", "d1", "Designing v2", tally.StatusUnknown)
	unknown.RawStatus = "waiting_review"
	tests := []struct {
		name    string
		file    string
		want    []tally.Item
		orphans int
		title   string
	}{
		{
			name: "the id comes from the create's own result, whatever order results arrive in; a TaskGet result is not a create",
			file: "built-late-ids.jsonl",
			want: []tally.Item{
				task("1", "Write notes", "Draft release notes", "Writing notes", tally.StatusInProgress),
				task("2", "Tag release", "git tag", "Tagging release", tally.StatusPending),
				task("3", "Announce", "Post to the list", "Announcing", tally.StatusPending),
			},
			title: "Plan the release",
		},
		{
			name: "two results in one user line: toolUseResult is ambiguous, each block's text gives its id",
			file: "built-two-results.jsonl",
			want: []tally.Item{
				task("7", "First", "one", "Doing first", tally.StatusCompleted),
				task("8", "Second", "two", "Doing second", tally.StatusPending),
			},
		},
		{
			name: "deleted is removed, not completed; blockers recorded both ways; unknown status word kept",
			file: "built-delete-blocks.jsonl",
			want: []tally.Item{
				withBlocks(unknown, []string{"3"}, nil, "alice"),
				withBlocks(task("3", "Ship", "d3", "Shipping", tally.StatusPending), nil, []string{"1"}, ""),
			},
		},
		{
			name: "TaskList is a full snapshot that resyncs missed events; an update of an unknown task is an orphan, counted",
			file: "built-resync.jsonl",
			want: []tally.Item{
				task("4", "Old work", "", "", tally.StatusCompleted),
				withBlocks(task("5", "New work", "", "", tally.StatusInProgress), []string{"6"}, nil, "bob"),
				withBlocks(task("6", "Later", "", "", tally.StatusPending), nil, []string{"5"}, ""),
			},
			orphans: 1,
		},
		{
			name:  "an empty TodoWrite clears the list; string toolUseResult, compaction and unknown line types change nothing",
			file:  "built-todo-misc.jsonl",
			want:  []tally.Item{},
			title: "Tidy the repository",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fi := tally.FileInfo{Path: "testdata/" + tt.file, Session: "built-session"}
			st := foldAll(t, fi, read(t, fi.Path))
			var got []tally.Item
			if l := st.Lists[""]; l != nil {
				got = l.Items()
			}
			if len(got) != 0 || len(tt.want) != 0 {
				if !reflect.DeepEqual(got, tt.want) {
					t.Errorf("list\n got %+v\nwant %+v", got, tt.want)
				}
			}
			if st.Stats.Orphans != int64(tt.orphans) || st.Stats.Malformed != 0 {
				t.Errorf("orphans %d malformed %d, want %d and 0", st.Stats.Orphans, st.Stats.Malformed, tt.orphans)
			}
			if tt.title != "" && st.Title != tt.title {
				t.Errorf("title %q, want %q", st.Title, tt.title)
			}
			if st.Project != "/work/built" {
				t.Errorf("project %q, want the first cwd", st.Project)
			}
		})
	}
}

// TestDecoder_TodoListSteps follows built-todo-misc.jsonl line by line: the
// first TodoWrite is the list until the empty one clears it.
func TestDecoder_TodoListSteps(t *testing.T) {
	fi := tally.FileInfo{Path: "testdata/built-todo-misc.jsonl", Session: "built-session"}
	fo := newFolder(t, fi)
	ls := adaptertest.Lines(read(t, fi.Path))
	for _, l := range ls[:3] {
		fo.Feed(l)
	}
	want := []tally.Item{
		todo("Lint", "Linting", tally.StatusCompleted),
		todo("Format", "Formatting", tally.StatusInProgress),
		func() tally.Item {
			it := todo("Review", "Reviewing", tally.StatusUnknown)
			it.RawStatus = "needs_review"
			return it
		}(),
	}
	if got := fo.List(""); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the first TodoWrite\n got %+v\nwant %+v", got, want)
	}
	for _, l := range ls[3:] {
		fo.Feed(l)
	}
	if got := fo.List(""); len(got) != 0 {
		t.Errorf("after an empty TodoWrite the list is %+v, want empty", got)
	}
	if fo.St.Title != "Tidy the repository" || fo.St.TitleWeak {
		t.Errorf("title %q weak=%v, want the ai-title", fo.St.Title, fo.St.TitleWeak)
	}
	if fo.St.Signal != tally.SignalWaiting {
		t.Errorf("signal %v after an end_turn reply, want waiting", fo.St.Signal)
	}
}
