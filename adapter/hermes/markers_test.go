package hermes

import (
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// Hermes' replies carry the agent's markers: in state.db, each placed by
// its row's id (a row has no byte offset) with the row's time, and read
// from every session of a compression chain; a tool's output or a user's
// prompt that looks like one is none.
func TestMarkers_stateDB(t *testing.T) {
	path, w := buildDB(t, "built-state-v2.sql")
	if _, err := w.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		('20260105_100000_a1b2c3', 'user', 'progress: T001 start', NULL, NULL, NULL, 1767607300.0),
		('20260105_100000_a1b2c3', 'assistant', 'Starting.

progress: T001 start', NULL, NULL, NULL, 1767607301.0),
		('20260105_100000_a1b2c3', 'tool', 'progress: T001.S1 done', 'call_x', NULL, 'terminal', 1767607302.0),
		('20260105_100000_a1b2c3', 'assistant', 'Both done.
progress: T001.S1 done
progress: T001.S2 done', NULL, NULL, NULL, 1767607303.0)`); err != nil {
		t.Fatal(err)
	}
	st := fold("s", sessions(t, path)["20260105_100000_a1b2c3"])
	var got []string
	for _, m := range st.Markers {
		got = append(got, adaptertest.MarkerText(m))
		if m.Offset == 0 || m.At.Before(time.Unix(1767607301, 0)) {
			t.Errorf("%s placed at row %d, %v", adaptertest.MarkerText(m), m.Offset, m.At)
		}
	}
	if strings.Join(got, "|") != "progress: T001 start|progress: T001.S1 done|progress: T001.S2 done" {
		t.Fatalf("markers %v", got)
	}
	if a, b := st.Markers[1], st.Markers[2]; a.Offset != b.Offset || a.Index != 0 || b.Index != 1 || a.Offset == st.Markers[0].Offset {
		t.Fatalf("one row's markers: %+v", st.Markers)
	}
}

// A marker whose keyword is capitalised is read from state.db too: the
// query's prefilter finds the keyword in any case, as package marker does.
func TestMarkers_stateDBReadsTheKeywordInAnyCase(t *testing.T) {
	path, w := buildDB(t, "built-state-v2.sql")
	if _, err := w.Exec(`INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES
		('20260105_100000_a1b2c3', 'assistant', 'Starting.

Progress: T001 start', NULL, NULL, NULL, 1767607301.0)`); err != nil {
		t.Fatal(err)
	}
	st := fold("s", sessions(t, path)["20260105_100000_a1b2c3"])
	if len(st.Markers) != 1 || adaptertest.MarkerText(st.Markers[0]) != "progress: T001 start" {
		t.Fatalf("markers %+v", st.Markers)
	}
}

// The stream form places a reply's markers at its line; a per-session log,
// rewritten whole, by the message's number in it.
func TestMarkers_streamAndLog(t *testing.T) {
	lines := []string{
		`{"role": "user", "content": "Plan it", "session_id": "s1", "timestamp": 1767614400.0}`,
		`{"role": "assistant", "content": "Planned.\n\nprogress: T001 start", "session_id": "s1", "timestamp": 1767614401.0}`,
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	st := adaptertest.Fold(t, New(Options{Home: t.TempDir()}), tally.FileInfo{Path: "-"}, data, 0)
	if len(st.Markers) != 1 || st.Markers[0].Offset != int64(len(lines[0])+1) || adaptertest.MarkerText(st.Markers[0]) != "progress: T001 start" {
		t.Fatalf("stream markers %+v", st.Markers)
	}

	log := `{"session_id": "s1", "session_start": "2026-01-05T12:00:00", "last_updated": "2026-01-05T12:05:00", "messages": [` +
		strings.Join(lines, ",") + `, {"role": "assistant", "content": "progress: T001.S1 done"}]}`
	dec := (&logDecoder{session: "s1"})
	var ms []tally.Marker
	if err := dec.Line([]byte(log), 0, func(ev tally.Event) {
		if ev.Kind == tally.EventMarker {
			ms = append(ms, ev.Marker)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Offset != 1 || ms[1].Offset != 2 || adaptertest.MarkerText(ms[1]) != "progress: T001.S1 done" {
		t.Fatalf("log markers %+v", ms)
	}
}
