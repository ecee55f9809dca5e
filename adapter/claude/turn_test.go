package claude

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// interactive is a real interactive Claude Code 2.1.330 session run in
// tmux against the scripted model (hook/testdata/README.md): 15 model
// calls, as the model's own request log says.
const interactive = "../../hook/testdata/claude-2.1.330/interactive-reminder"

// modelCalls is how many agent-loop requests the scripted model received:
// the truth the turns are counted against.
func modelCalls(t *testing.T) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(interactive, "harness", "requests-summary.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		var r struct{ Main bool }
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatal(err)
		}
		if r.Main {
			n++
		}
	}
	return n
}

// The hooks count the model's turns from what every Claude Code version
// writes, an assistant message's lines (one per content block, all with
// the message's id), not from the api-request lines 2.1.x adds: a
// transcript without them (1.0.x, or one that stops writing them) counts
// the same turns, however it is read (whole, or in pieces resumed from the
// decoder's saved state).
func TestTurn_countsEveryModelCallWithOrWithoutApiRequestLines(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(interactive, "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var stripped bytes.Buffer
	for _, l := range bytes.SplitAfter(data, []byte("\n")) {
		if !bytes.HasPrefix(l, []byte(`{"type":"api-request"`)) {
			stripped.Write(l)
		}
	}
	if stripped.Len() == len(data) {
		t.Fatal("the capture has no api-request lines to take out")
	}
	want := modelCalls(t)
	for name, d := range map[string][]byte{"as written": data, "without api-request lines": stripped.Bytes()} {
		for _, chunk := range []int{0, 97, 4096} {
			st := adaptertest.Fold(t, New(Options{}), tally.FileInfo{Path: "t.jsonl", Session: "s"}, d, chunk)
			if st.Turns != int64(want) {
				t.Errorf("%s, read in chunks of %d: %d turns, the model was called %d times", name, chunk, st.Turns, want)
			}
		}
	}
}

// 1.0.x transcripts have no api-request lines: their turns are the main
// agent's assistant messages, as a full parse of each line counts them.
func TestTurn_countsTheTurnsOf1_0Transcripts(t *testing.T) {
	paths, _ := filepath.Glob(fixtures + "/claude/*.jsonl")
	checked := 0
	for _, p := range paths {
		data := read(t, p)
		if bytes.Contains(data, []byte(`{"type":"api-request"`)) || !bytes.Contains(data, []byte(`"version":"1.0.`)) {
			continue
		}
		ids := map[string]bool{}
		for _, l := range bytes.Split(data, []byte("\n")) {
			var line struct {
				Type        string `json:"type"`
				IsSidechain bool   `json:"isSidechain"`
				Message     struct {
					ID   string `json:"id"`
					Role string `json:"role"`
				} `json:"message"`
			}
			if json.Unmarshal(l, &line) == nil && line.Type == "assistant" && !line.IsSidechain && line.Message.Role == "assistant" && line.Message.ID != "" {
				ids[line.Message.ID] = true
			}
		}
		if len(ids) == 0 {
			continue
		}
		checked++
		st := adaptertest.Fold(t, New(Options{}), tally.FileInfo{Path: p, Session: strings.TrimSuffix(filepath.Base(p), ".jsonl")}, data, 0)
		if st.Turns != int64(len(ids)) {
			t.Errorf("%s: %d turns, %d assistant messages", filepath.Base(p), st.Turns, len(ids))
		}
	}
	if checked == 0 {
		t.Fatal("no 1.0.x transcript checked")
	}
}
