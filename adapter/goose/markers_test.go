package goose

import (
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/adapter/adaptertest"
)

// TestMarkers_theAssistantsTextBlocks: Goose's replies carry the agent's
// markers, in the text blocks of its messages' content_json — the keyword
// in any case — each placed by its message's id (a row has no byte
// offset) with the message's time, the markers of one message numbered
// across its blocks; a tool's answer, a user's prompt or a tool call's
// arguments that look like one are none, and a message that is not JSON
// is skipped without failing the read.
func TestMarkers_theAssistantsTextBlocks(t *testing.T) {
	path, w := fx.Build(t, "built-goose.sql")
	if _, err := w.Exec(`INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES
		('20261126_1', 'user', '[{"type":"text","text":"progress: T001 start"}]', 1795687900),
		('20261126_1', 'assistant', '[{"type":"text","text":"Starting.\n\nprogress: T001 start"}]', 1795687901),
		('20261126_1', 'user', '[{"type":"toolResponse","id":"c","toolResult":{"status":"success","value":{"content":[{"type":"text","text":"progress: T001.S1 done"}]}}}]', 1795687902),
		('20261126_1', 'assistant', '[{"type":"text","text":"One done.\nPROGRESS: T001.S1 done"},{"type":"toolRequest","id":"d","toolCall":{"status":"success","value":{"name":"developer__shell","arguments":{"command":"echo progress: T001.S9 done"}}}},{"type":"text","text":"progress: T001.S2 done"}]', 1795687903),
		('20261126_1', 'assistant', '[{"type":"text","text":"progress: T001.S3 done"', 1795687904)`); err != nil {
		t.Fatal(err)
	}
	st := fx.Fold(flaky, fx.Sessions(t, path)[flaky])
	var got []string
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
	}
	if strings.Join(got, "|") != "progress: T001 start|progress: T001.S1 done|progress: T001.S2 done" {
		t.Fatalf("markers %v", got)
	}
	first, a, b := st.Markers[0], st.Markers[1], st.Markers[2]
	if !first.At.Equal(time.Unix(1795687901, 0)) || first.Offset == 0 {
		t.Errorf("first marker placed at row %d, %v", first.Offset, first.At)
	}
	if a.Offset != b.Offset || a.Index != 0 || b.Index != 1 || a.Offset == first.Offset {
		t.Errorf("one message's markers: %+v", st.Markers)
	}
}
