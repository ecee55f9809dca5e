package codex

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const markerCapture = "testdata/plan-markers"

var wantMarkers = []string{"progress: T001 start", "progress: T001.S1 done", "progress: T001.S2 done", "progress: T002.S1 done"}

// Codex's replies carry the agent's markers: each read once from the
// rollout's assistant message (not again from the event_msg copy Codex
// writes beside it), at that line's offset and time; the two markers of
// the last reply are its line's first and second.
func TestMarkers_rollout(t *testing.T) {
	paths, _ := filepath.Glob(markerCapture + "/rollout-*.jsonl")
	if len(paths) != 1 {
		t.Fatalf("the capture's rollout: %v", paths)
	}
	data := read(t, paths[0])
	fi := tally.FileInfo{Path: paths[0], Session: "01a2099f-312a-7f50-9ee6-dec5b91a54d6"}
	st := adaptertest.Fold(t, New(Options{Home: t.TempDir()}), fi, data, 0)
	var got []string
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
		line := adaptertest.LineAt(data, m.Offset)
		if !bytes.Contains(line, []byte(`"role":"assistant"`)) || !bytes.Contains(line, []byte(`"type":"response_item"`)) {
			t.Errorf("%s placed at a line that is not the reply: %.120s", adaptertest.MarkerText(m), line)
		}
		if !bytes.Contains(line, []byte(`"timestamp":"`+m.At.UTC().Format("2006-01-02T15:04:05.000Z")+`"`)) {
			t.Errorf("%s dated %v, not its line's time", adaptertest.MarkerText(m), m.At)
		}
	}
	if strings.Join(got, "|") != strings.Join(wantMarkers, "|") {
		t.Fatalf("markers %v, want %v", got, wantMarkers)
	}
	if last := st.Markers[3]; last.Offset != st.Markers[2].Offset || last.Index != 1 {
		t.Fatalf("the last reply's markers: %+v", st.Markers[2:])
	}
}

// The exec stream of the same run says the same markers, each from the
// completed agent_message. Its lines carry no time.
func TestMarkers_execStream(t *testing.T) {
	data := read(t, markerCapture+"/exec-json.stdout.jsonl")
	st := adaptertest.Fold(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: "-"}, data, 0)
	var got []string
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
		if !m.At.Equal(time.Time{}) || !bytes.Contains(adaptertest.LineAt(data, m.Offset), []byte(`"type":"agent_message"`)) {
			t.Errorf("%s at %d, %v", adaptertest.MarkerText(m), m.Offset, m.At)
		}
	}
	if strings.Join(got, "|") != strings.Join(wantMarkers, "|") {
		t.Fatalf("markers %v, want %v", got, wantMarkers)
	}
}
