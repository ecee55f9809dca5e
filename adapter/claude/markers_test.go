package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// planCapture is a real Claude Code session that planned into docs/por and
// wrote progress markers in its replies (its README says how it was made).
const planCapture = "../../plan/testdata/claude-code-2.1.330-plan-markers"

// wantMarker is a marker as the capture's own log places it: the offset of
// the assistant line whose text holds it, and that line's timestamp.
type wantMarker struct {
	text   string
	offset int64
	index  int
	at     time.Time
}

// captureMarkers reads the markers out of the capture's log the slow,
// obvious way: every assistant line parsed, its text blocks split into
// lines, each line starting "progress: " taken.
func captureMarkers(t *testing.T, data []byte) []wantMarker {
	t.Helper()
	var out []wantMarker
	var off int64
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		var l struct {
			Type      string    `json:"type"`
			Timestamp time.Time `json:"timestamp"`
			Message   struct {
				Content []struct{ Type, Text string } `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(line, &l) == nil && l.Type == "assistant" {
			i := 0
			for _, c := range l.Message.Content {
				for _, s := range strings.Split(c.Text, "\n") {
					if c.Type == "text" && strings.HasPrefix(s, "progress: ") {
						out = append(out, wantMarker{s, off, i, l.Timestamp})
						i++
					}
				}
			}
		}
		off += int64(len(line))
	}
	return out
}

// Claude Code's assistant text carries the agent's progress markers: each
// is read once, in order, placed at its line's offset with the line's time,
// and two markers of one message are that line's first and second.
func TestMarkers_fromAssistantText(t *testing.T) {
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	if len(logs) != 1 {
		t.Fatalf("the capture's log: %v", logs)
	}
	data := read(t, logs[0])
	want := captureMarkers(t, data)
	if len(want) != 6 {
		t.Fatalf("the capture holds %d markers, want the 6 its README lists", len(want))
	}
	a := New(Options{ConfigDir: "/nonexistent"})
	fi := tally.FileInfo{Path: logs[0], Session: "68c26bdc-7510-48dd-82af-1c0fcfd325ad"}
	for _, chunk := range []int{0, 97} {
		st := adaptertest.Fold(t, a, fi, data, chunk)
		if len(st.Markers) != len(want) {
			t.Fatalf("chunk %d: %d markers, want %d: %+v", chunk, len(st.Markers), len(want), st.Markers)
		}
		for i, m := range st.Markers {
			w := want[i]
			if adaptertest.MarkerText(m) != w.text || m.Offset != w.offset || m.Index != w.index || !m.At.Equal(w.at) {
				t.Errorf("chunk %d: marker %d = %q at %d:%d %v, want %q at %d:%d %v",
					chunk, i, adaptertest.MarkerText(m), m.Offset, m.Index, m.At, w.text, w.offset, w.index, w.at)
			}
		}
	}
	if want[4].offset != want[3].offset || want[4].index != 1 {
		t.Fatalf("the capture's two-marker message is not one line: %+v", want[3:5])
	}
}

// The stream-json of the same run says the same markers; its final result
// line, which repeats the last reply's text, is not read again.
func TestMarkers_streamJSONMatchesTheTranscript(t *testing.T) {
	data := read(t, planCapture+"/stream-json.stdout.jsonl")
	st := adaptertest.Fold(t, New(Options{ConfigDir: "/nonexistent"}), tally.FileInfo{Path: "-"}, data, 0)
	var got []string
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
	}
	want := "progress: T001 start|progress: T001.S1 done|progress: T001.S2 blocked: pytest is not installed|" +
		"progress: T001.S2 done|progress: T002.S1 done|progress: T002.S2 done"
	if strings.Join(got, "|") != want {
		t.Fatalf("markers from stream-json:\n%s\nwant:\n%s", strings.Join(got, "|"), want)
	}
}

// A marker is text the agent says, not bytes that look like one: a tool's
// input or output, a user's prompt, or a marker in the middle of a line
// are none.
func TestMarkers_onlyInAssistantText(t *testing.T) {
	lines := []string{
		`{"type":"user","message":{"role":"user","content":"progress: T001 start"},"timestamp":"2026-01-01T00:00:00Z"}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Write","input":{"content":"progress: T001 start\n"}}]},"timestamp":"2026-01-01T00:00:01Z"}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"progress: T001 start"}]},"timestamp":"2026-01-01T00:00:02Z"}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"work in progress: T001 done"}]},"timestamp":"2026-01-01T00:00:03Z"}`,
		`{"type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"progress: T001 start"},{"type":"text","text":"Done.\n\nprogress: T001.S1 done"}]},"timestamp":"2026-01-01T00:00:04Z"}`,
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	st := adaptertest.Fold(t, New(Options{ConfigDir: "/nonexistent"}), tally.FileInfo{Path: "x.jsonl", Session: "x"}, data, 0)
	if len(st.Markers) != 1 || adaptertest.MarkerText(st.Markers[0]) != "progress: T001.S1 done" {
		t.Fatalf("markers %+v", st.Markers)
	}
}
