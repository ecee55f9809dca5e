package claude

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// foldLive folds a file as the indexer folds a session that may still be
// going: with a window of calls (CallsFrom) reaching back before it began.
func foldLive(t *testing.T, fi tally.FileInfo, data []byte) *tally.FileState {
	t.Helper()
	dec, err := New(Options{}).NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	dec.(tally.CallWindow).CallsFrom(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	st := &tally.FileState{Path: fi.Path, Agent: Agent, Session: fi.Session}
	st.Feed(dec, data)
	return st
}

// TestRuntime_aLiveSessionShowsItsToolCallsApartFromItsList: in the
// indexer's window every tool_use is a call of the runtime list, finished
// by its tool_result (failed when is_error), and the model's own list is
// what it was; history (no window) makes no runtime list.
func TestRuntime_aLiveSessionShowsItsToolCallsApartFromItsList(t *testing.T) {
	for _, path := range []string{
		"../../detect/testdata/claude-loop/session.jsonl",
		"testdata/built-todo-misc.jsonl",
	} {
		data := read(t, path)
		fi := tally.FileInfo{Path: path, Session: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
		live := foldLive(t, fi, data)
		cold := foldAll(t, fi, data)
		if cold.Lists[tally.RuntimeList] != nil {
			t.Errorf("%s: history folded with no window has a runtime list", path)
		}
		rec := tally.Merge([]*tally.FileState{live})
		s := rec.Session(time.Now())
		calls, failed := toolBlocks(t, data)
		if s.Runtime == nil || s.Runtime.Calls != calls || s.Runtime.Failed != failed {
			t.Errorf("%s: runtime %+v, want %d calls, %d failed", path, s.Runtime, calls, failed)
		}
		want := tally.Merge([]*tally.FileState{cold})
		if got := rec.Lists[""]; len(got) != len(want.Lists[""]) {
			t.Errorf("%s: the model's list changed: %d items, want %d", path, len(got), len(want.Lists[""]))
		}
	}
}

// toolBlocks counts, with encoding/json, the tool_use blocks of assistant
// lines and the tool_result blocks with is_error of user lines: what
// Claude Code logged of its calls.
func toolBlocks(t *testing.T, data []byte) (calls, failed int) {
	for _, line := range bytes.Split(data, []byte("\n")) {
		var l struct {
			Type    string
			Message struct {
				Content json.RawMessage
			}
		}
		if json.Unmarshal(line, &l) != nil {
			continue
		}
		var blocks []struct {
			Type    string
			IsError bool `json:"is_error"`
		}
		if json.Unmarshal(l.Message.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch {
			case l.Type == "assistant" && b.Type == "tool_use":
				calls++
			case l.Type == "user" && b.Type == "tool_result" && b.IsError:
				failed++
			}
		}
	}
	return calls, failed
}
