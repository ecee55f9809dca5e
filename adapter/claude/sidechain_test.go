package claude

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// TestDecoder_Sidechains: in 1.0.98 transcript fe5e1c67 five Task
// sub-agents interleave in the main file; 16 of its 19 TodoWrites come from
// three of them, and each sidechain keeps its own list, named by its root
// line's uuid.
func TestDecoder_Sidechains(t *testing.T) {
	path := fixtures + "/claude/ccviewer-1.0.98-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
	data := read(t, path)
	fi := tally.FileInfo{Path: path, Session: "fe5e1c67-53e7-4862-81ae-d0e013e3270b"}

	// The agent's own record: roots (isSidechain, parent null) and each
	// list's last TodoWrite, attributed by walking parentUuid.
	al := &agentLists{file: fi, byUUID: map[string]*rawLine{}}
	var all []*rawLine
	for _, b := range adaptertest.Lines(data) {
		var l rawLine
		if err := json.Unmarshal(b, &l); err != nil {
			t.Fatal(err)
		}
		all = append(all, &l)
		if l.UUID != "" {
			al.byUUID[l.UUID] = &l
		}
	}
	roots, calls := 0, 0
	last := map[string][]rawTodo{}
	for _, l := range all {
		if l.IsSidechain && l.ParentUUID == "" {
			roots++
		}
		for _, b := range l.blocks() {
			if b.Type == "tool_use" && b.Name == "TodoWrite" {
				calls++
				var in struct{ Todos []rawTodo }
				_ = json.Unmarshal(b.Input, &in)
				last[al.of(l)] = in.Todos
			}
		}
	}
	if roots != 5 || calls != 19 {
		t.Fatalf("fixture has %d sidechains and %d TodoWrites, want 5 and 19", roots, calls)
	}

	for _, chunk := range []int{0, 512} {
		st := adaptertest.Fold(t, New(Options{}), fi, data, chunk)
		fromSide := 0
		for k, l := range st.Lists {
			if k == "" || l.Len() == 0 {
				continue
			}
			fromSide++
			if al.byUUID[k] == nil || !al.byUUID[k].IsSidechain {
				t.Errorf("list %q is not named by a sidechain root", k)
			}
		}
		if fromSide != 3 {
			t.Errorf("chunk %d: %d sub-agent lists with todos, want 3", chunk, fromSide)
		}
		for k, todos := range last {
			got := st.Lists[k]
			if got == nil {
				t.Errorf("chunk %d: no list %q", chunk, k)
				continue
			}
			if want := wantTodos(todos); !equalItems(got.Items(), want) {
				t.Errorf("chunk %d: list %q\n got %+v\nwant %+v", chunk, k, got.Items(), want)
			}
		}
	}
}

func equalItems(a, b []tally.Item) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

func TestIsSidechain(t *testing.T) {
	for line, want := range map[string]bool{
		`{"parentUuid":null,"isSidechain":true,"type":"user"}`:                     true,
		`{"parentUuid":null,"isSidechain":false,"type":"user"}`:                    false,
		`{"parentUuid":null,"wasSidechain":false,"isSidechain":true}`:              true,
		`{"parentUuid":null,"type":"user","text":"isSidechain\":true"}`:            false,
		`{"type":"summary","summary":"…"}`:                                         false,
		`{"parentUuid":"x","isSidechain":true`:                                     true,
		`{"parentUuid":"` + strings.Repeat("x", headLen) + `","isSidechain":true}`: false, // past the head
	} {
		if got := isSidechain([]byte(line)); got != want {
			t.Errorf("isSidechain(%.80s) = %v, want %v", line, got, want)
		}
	}
}
