package claude

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// A TodoWrite item whose content is empty is skipped, not shown as a blank
// row and counted in the progress; the session's stats count it.
func TestDecoder_TodoWithoutTextIsSkippedAndCounted(t *testing.T) {
	const line = `{"type":"assistant","timestamp":"2026-11-22T10:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_b","name":"TodoWrite","input":{"todos":[` +
		`{"content":"Write greet.py","status":"completed","activeForm":"Writing greet.py"},` +
		`{"content":"","status":"in_progress","activeForm":""},` +
		`{"content":"Add a test","status":"pending","activeForm":"Adding a test"}]}}]}}` + "\n"
	st := foldAll(t, tally.FileInfo{Path: "b.jsonl", Session: "b"}, []byte(line))
	rec := tally.Merge([]*tally.FileState{st})
	s := rec.Session(time.Date(2026, 11, 22, 10, 1, 0, 0, time.UTC))
	if len(s.Items) != 2 || s.Progress.Total != 2 || s.Progress.Done != 1 || s.Progress.InProgress != 0 {
		t.Errorf("items %d, progress %+v; want the two items with text, 1/2, none in progress", len(s.Items), s.Progress)
	}
	for _, it := range s.Items {
		if it.Title == "" {
			t.Errorf("a blank row is shown: %+v", it)
		}
	}
	if s.Stats.Blank != 1 {
		t.Errorf("stats.blank = %d, want 1", s.Stats.Blank)
	}
}
