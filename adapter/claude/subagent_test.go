package claude

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// sidecarName reads a sub-agent's description from its sidecar, the way
// the test knows it: independently of the adapter.
func sidecarName(t *testing.T, transcript string) string {
	t.Helper()
	b, err := os.ReadFile(strings.TrimSuffix(transcript, ".jsonl") + ".meta.json")
	if err != nil {
		t.Fatal(err)
	}
	var meta struct{ Description string }
	if err := json.Unmarshal(b, &meta); err != nil || meta.Description == "" {
		t.Fatalf("sidecar: %v %+v", err, meta)
	}
	return meta.Description
}

// A sub-agent is shown by what it was asked to do, not by its hex id: its
// transcript's list is named by the description in agent-<id>.meta.json.
func TestDecoder_SubAgentIsNamedByItsSidecar(t *testing.T) {
	for _, scen := range []string{"tasks-subagent", "todowrite-subagent"} {
		subs, _ := filepath.Glob(filepath.Join(captured, scen, "config/projects/*/*/subagents/agent-*.jsonl"))
		if len(subs) != 1 {
			t.Fatalf("%s: sub-agent transcripts %v", scen, subs)
		}
		want := sidecarName(t, subs[0])
		a := New(Options{})
		fi, ok := a.Match(filepath.Join(captured, scen, "config/projects"), subs[0])
		if !ok || fi.List == "" {
			t.Fatalf("Match %+v %v", fi, ok)
		}
		for _, chunk := range []int{0, 97} {
			st := adaptertest.Fold(t, a, fi, read(t, subs[0]), chunk)
			if l := st.Lists[fi.List]; l == nil || l.Name != want {
				t.Errorf("%s chunk %d: list %s named %+v, the sidecar says %q", scen, chunk, fi.List, l, want)
			}
			rec := tally.Merge([]*tally.FileState{st})
			if s := rec.Session(st.LastAt); len(s.SubAgents) != 1 || s.SubAgents[0].Name != want || s.SubAgents[0].ID != fi.List {
				t.Errorf("%s: sub-agents %+v, want %q named %q", scen, s.SubAgents, fi.List, want)
			}
		}
	}
}

// In stream-json the sub-agent's lines name the Agent call they run for
// (parent_tool_use_id), and that call holds the description.
func TestDecoder_StreamSubAgentIsNamedByItsAgentCall(t *testing.T) {
	for _, scen := range []string{"tasks-subagent", "todowrite-subagent"} {
		subs, _ := filepath.Glob(filepath.Join(captured, scen, "config/projects/*/*/subagents/agent-*.jsonl"))
		if len(subs) != 1 {
			t.Fatalf("%s: sub-agent transcripts %v", scen, subs)
		}
		want := sidecarName(t, subs[0])
		id := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(subs[0]), "agent-"), ".jsonl")
		p := filepath.Join(captured, scen, "stream-json.stdout.jsonl")
		st := adaptertest.Fold(t, New(Options{}), tally.FileInfo{Path: "-"}, read(t, p), 0)
		if l := st.Lists[id]; l == nil || l.Name != want || l.Len() == 0 {
			t.Errorf("%s: stream list %s = %+v, want its items named %q", scen, id, l, want)
		}
	}
}

// The sidecar may come after the transcript's first lines: a live
// decoder, kept between reads, looks for it again at the next read.
func TestDecoder_SubAgentSidecarWrittenLate(t *testing.T) {
	subs, _ := filepath.Glob(filepath.Join(captured, "tasks-subagent", "config/projects/*/*/subagents/agent-*.jsonl"))
	if len(subs) != 1 {
		t.Fatalf("sub-agent transcripts %v", subs)
	}
	want := sidecarName(t, subs[0])
	dir := filepath.Join(t.TempDir(), "p", "s", "subagents")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, filepath.Base(subs[0]))
	lines := adaptertest.Lines(read(t, subs[0]))
	fi := tally.FileInfo{Path: path, Session: "s", List: strings.TrimSuffix(strings.TrimPrefix(filepath.Base(path), "agent-"), ".jsonl")}
	dec, err := New(Options{}).NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	st := &tally.FileState{Path: path}
	st.Feed(dec, append(lines[0], '\n'))
	if l := st.Lists[fi.List]; l != nil && l.Name != "" {
		t.Fatalf("named %q before any sidecar exists", l.Name)
	}
	meta, _ := os.ReadFile(strings.TrimSuffix(subs[0], ".jsonl") + ".meta.json")
	if err := os.WriteFile(strings.TrimSuffix(path, ".jsonl")+".meta.json", meta, 0o644); err != nil {
		t.Fatal(err)
	}
	st.Feed(dec, append(lines[1], '\n'))
	if l := st.Lists[fi.List]; l == nil || l.Name != want {
		t.Errorf("after the sidecar came: list %+v, want it named %q", l, want)
	}
}
