package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// TestRuntime_aLiveRolloutShowsItsToolCallsApartFromItsPlan: with the
// indexer's window every tool call of a rollout is a call of the runtime
// list, finished by its output; the call Codex refused (update_plan with
// status "done": "failed to parse function arguments") is the one failed.
// With no window (history) there is no runtime list, and the plan is the
// same either way.
func TestRuntime_aLiveRolloutShowsItsToolCallsApartFromItsPlan(t *testing.T) {
	for _, c := range []struct {
		glob          string
		calls, failed int
	}{
		{"captured/codex-0.169.0/update-plan-edge-cases/codex_home/sessions/*/*/*/rollout-*.jsonl", 4, 1},
		{"captured/codex-0.169.0/update-plan-resume/codex_home/sessions/*/*/*/rollout-*.jsonl", 12, 0},
	} {
		path := captures(t, c.glob)[0]
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		fi := tally.FileInfo{Path: path, Session: strings.TrimSuffix(filepath.Base(path), ".jsonl")}
		fold := func(window bool) *tally.FileState {
			dec, err := New(Options{}).NewDecoder(fi, nil)
			if err != nil {
				t.Fatal(err)
			}
			if window {
				dec.(tally.CallWindow).CallsFrom(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
			}
			st := &tally.FileState{Path: path, Agent: Agent, Session: fi.Session}
			st.Feed(dec, data)
			return st
		}
		live, cold := fold(true), fold(false)
		rec := tally.Merge([]*tally.FileState{live})
		s := rec.Session(time.Now())
		if s.Runtime == nil || s.Runtime.Calls != c.calls || s.Runtime.Failed != c.failed || s.Runtime.Running != 0 {
			t.Errorf("%s: runtime %+v, want %d calls, %d failed, none running", filepath.Base(path), s.Runtime, c.calls, c.failed)
		}
		if cold.Lists[tally.RuntimeList] != nil {
			t.Errorf("%s: history has a runtime list", filepath.Base(path))
		}
		if a, b := live.Lists[""], cold.Lists[""]; (a == nil) != (b == nil) || (a != nil && len(a.Items()) != len(b.Items())) {
			t.Errorf("%s: the plan changed with the window", filepath.Base(path))
		}
	}
}

func TestFailedOutput(t *testing.T) {
	for out, want := range map[string]bool{
		`"Exit code: 0\nOutput:\nok"`: false, `"Exit code: 1\nOutput:"`: true, `"Process exited with code 2\n"`: true,
		`"Process exited with code 0\n"`: false, `"Exit code: 10"`: true, `"Plan updated"`: false,
		`"failed to parse function arguments: x"`: true, `{"content":"x","success":false}`: true, `7`: false,
	} {
		if got := failedOutput([]byte(out)); got != want {
			t.Errorf("failedOutput(%s) = %v", out, got)
		}
	}
}
