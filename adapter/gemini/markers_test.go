package gemini

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

const markerCapture = "testdata/plan-markers"

var wantMarkers = []string{"progress: T001 start", "progress: T001.S1 done", "progress: T001.S2 done", "progress: T002.S1 done"}

// Gemini CLI writes a reply to its chat record, then writes it again under
// the same id once its tool calls ran: each marker is read once, placed
// at the line the reply was first written on, read whole or in pieces.
func TestMarkers_chatRecordWrittenTwice(t *testing.T) {
	paths, _ := filepath.Glob(markerCapture + "/session-*.jsonl")
	if len(paths) != 1 {
		t.Fatalf("the capture's chat record: %v", paths)
	}
	data := read(t, paths[0])
	for _, chunk := range []int{0, 301} {
		st := adaptertest.Fold(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: paths[0], Session: "9c11a5fd"}, data, chunk)
		var got []string
		seen := map[int64]bool{}
		for _, m := range st.Markers {
			got = append(got, adaptertest.MarkerText(m))
			line := adaptertest.LineAt(data, m.Offset)
			if !bytes.Contains(line, []byte(`"type":"gemini"`)) || bytes.Contains(line, []byte(`"toolCalls"`)) {
				t.Errorf("chunk %d: %s placed at %.100s, not the reply's first record", chunk, adaptertest.MarkerText(m), line)
			}
			if m.Index == 0 && seen[m.Offset] {
				t.Errorf("chunk %d: two first markers at %d", chunk, m.Offset)
			}
			seen[m.Offset] = true
		}
		if strings.Join(got, "|") != strings.Join(wantMarkers, "|") {
			t.Fatalf("chunk %d: markers %v, want %v", chunk, got, wantMarkers)
		}
	}
}

// The stream-json of the same run says the same markers; a reply streamed
// in deltas that split a marker still gives it once, whole.
func TestMarkers_streamDeltas(t *testing.T) {
	data := read(t, markerCapture+"/stream-json.stdout.jsonl")
	st := adaptertest.Fold(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: "-"}, data, 0)
	var got []string
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
	}
	if strings.Join(got, "|") != strings.Join(wantMarkers, "|") {
		t.Fatalf("markers %v, want %v", got, wantMarkers)
	}
	delta := func(s string) string {
		return `{"type":"message","timestamp":"2026-11-23T18:16:12.087Z","role":"assistant","content":"` + s + `","delta":true}`
	}
	split := strings.Join([]string{
		delta(`Both are done.\n\nprogr`), delta(`ess: T001.S1 do`), delta(`ne\nprogress: T001.S2 done`),
		`{"type":"tool_use","timestamp":"2026-11-23T18:16:12.100Z","tool_name":"read_file","tool_id":"r1","parameters":{}}`,
		delta(`Next.`),
	}, "\n") + "\n"
	st = adaptertest.Fold(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: "-"}, []byte(split), 0)
	got = got[:0]
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
	}
	if strings.Join(got, "|") != "progress: T001.S1 done|progress: T001.S2 done" {
		t.Fatalf("markers from deltas: %v", got)
	}
}
