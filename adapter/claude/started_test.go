package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/adaptertest"
)

// firstStamp is the timestamp of the first line of data that has one.
func firstStamp(t *testing.T, data []byte) time.Time {
	t.Helper()
	for _, l := range adaptertest.Lines(data) {
		var v struct{ Timestamp time.Time }
		if bytes.Contains(l, timestampNeedle) && json.Unmarshal(l, &v) == nil && !v.Timestamp.IsZero() {
			return v.Timestamp
		}
	}
	return time.Time{}
}

// A session started when its log's first line was written, not when the
// first todo was, nor at one of the newest lines: the card's elapsed time
// counts from there.
func TestDecoder_StartedAtIsTheFirstLinesTime(t *testing.T) {
	checked := 0
	for _, f := range fixtureFiles(t) {
		data := read(t, f.path)
		want := firstStamp(t, data)
		if want.IsZero() {
			continue // stream-json of 1.0.x: no line carries a time
		}
		checked++
		t.Run(filepath.Base(f.path), func(t *testing.T) {
			for _, chunk := range []int{0, 97} {
				st := adaptertest.Fold(t, New(Options{}), f.info, data, chunk)
				if !st.StartedAt.Equal(want) {
					t.Errorf("chunk %d: startedAt %s, the first line says %s", chunk, st.StartedAt.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
				}
			}
		})
	}
	if checked < 10 {
		t.Fatalf("only %d fixtures have timestamps", checked)
	}
}

// The fixture of the report: its first line is 12:47:02, and the session
// was shown as started 12:47:10, the time of its first todo.
func TestDecoder_StartedAtExample2(t *testing.T) {
	p := fixtures + "/claude/claudestatus-1.0.31-example2.jsonl"
	st := foldAll(t, tally.FileInfo{Path: p, Session: "s"}, read(t, p))
	want := time.Date(2025, 6, 29, 12, 47, 2, 125e6, time.UTC)
	if !st.StartedAt.Equal(want) {
		t.Errorf("startedAt %s, want %s", st.StartedAt, want)
	}
}
