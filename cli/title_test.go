package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// The capture's prompt, 113 characters: longer than any title column.
const tasksPrompt = "Create greet.py with a greet(name) function, add a test and document it in the README. Track the work with tasks."

// A title is data: --json and the tab-separated table carry it whole,
// and show prints it whole on a terminal too, wrapped rather than cut.
// Only the terminal table, which has one row per session, cuts it.
func TestRun_titleIsWholeInDataAndInShow(t *testing.T) {
	st := newStore(t)
	dir := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks/config")}
	if code, _, errOut := run(t, st, dir, "scan"); code != ExitOK {
		t.Fatalf("scan: exit %d: %s", code, errOut)
	}

	_, out, _ := run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions --json: %v\n%s", err, out)
	}
	if list[0].Title != tasksPrompt {
		t.Errorf("--json title %q, the prompt was %q", list[0].Title, tasksPrompt)
	}

	_, out, _ = run(t, st, nil, "sessions")
	if cols := strings.Split(strings.TrimSuffix(out, "\n"), "\t"); len(cols) < 4 || cols[3] != tasksPrompt {
		t.Errorf("tab-separated title column %q, want the whole prompt", cols)
	}

	var b strings.Builder
	if err := RenderShow(&b, list[0], ShowOptions{Width: 40, Now: fixedNow}); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(b.String(), "\nclaude ·")
	for _, line := range strings.Split(head, "\n") {
		if w := len([]rune(line)); w > 40 {
			t.Errorf("title line %q is %d wide on a 40-column terminal", line, w)
		}
	}
	if got := strings.Join(strings.Fields(head), " "); got != tasksPrompt {
		t.Errorf("show's title reads %q, want the whole prompt", got)
	}
}
