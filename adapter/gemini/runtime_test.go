package gemini

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// distinctCalls counts, with encoding/json, the distinct tool call ids of
// a chat record's messages (a message is appended again as its calls
// progress) and those whose final status is error.
func distinctCalls(t *testing.T, data []byte) (calls, failed int) {
	status := map[string]string{}
	var order []string
	for _, line := range strings.Split(string(data), "\n") {
		var m struct {
			ToolCalls []struct{ ID, Status string } `json:"toolCalls"`
		}
		if json.Unmarshal([]byte(line), &m) != nil {
			continue
		}
		for _, c := range m.ToolCalls {
			if _, ok := status[c.ID]; !ok {
				order = append(order, c.ID)
			}
			status[c.ID] = c.Status
		}
	}
	for _, id := range order {
		if status[id] == "error" {
			failed++
		}
	}
	return len(order), failed
}

// TestRuntime_aLiveChatShowsItsToolCallsApartFromItsList: in the
// indexer's window each tool call of the chat record is one call of the
// runtime list, however often its message is appended again, finished by
// its final status; history (no window) has none, and the list is the
// same either way.
func TestRuntime_aLiveChatShowsItsToolCallsApartFromItsList(t *testing.T) {
	paths, _ := filepath.Glob(captured + "/*/gemini_home/tmp/*/chats/*.jsonl")
	if len(paths) == 0 {
		t.Fatal("no captured chats")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fi := tally.FileInfo{Path: path, Session: "s"}
		fold := func(window bool) *tally.FileState {
			dec, err := New(Options{}).NewDecoder(fi, nil)
			if err != nil {
				t.Fatal(err)
			}
			if window {
				dec.(tally.CallWindow).CallsFrom(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
			}
			st := &tally.FileState{Path: path, Agent: Agent, Session: "s"}
			st.Feed(dec, data)
			return st
		}
		live, cold := fold(true), fold(false)
		calls, failed := distinctCalls(t, data)
		rec := tally.Merge([]*tally.FileState{live})
		s := rec.Session(time.Now())
		got := 0
		if s.Runtime != nil {
			got = s.Runtime.Calls
			if s.Runtime.Failed != failed || s.Runtime.Running != 0 {
				t.Errorf("%s: runtime %+v, want %d failed, none running", path, s.Runtime, failed)
			}
		}
		if got != calls {
			t.Errorf("%s: %d runtime calls, want the record's %d", path, got, calls)
		}
		if cold.Lists[tally.RuntimeList] != nil {
			t.Errorf("%s: history has a runtime list", path)
		}
		if a, b := live.Lists[""], cold.Lists[""]; (a == nil) != (b == nil) || (a != nil && len(a.Items()) != len(b.Items())) {
			t.Errorf("%s: the list changed with the window", path)
		}
	}
}
