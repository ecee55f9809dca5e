package opencode

import (
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// TestRuntime_theToolPartsOfALiveSessionAreItsRuntimeProgress: a tool
// part is a call of its root session's runtime list (a sub-agent's too),
// running until completed, failed on error; an old session's parts, past
// the window the newest update sets, are not read.
func TestRuntime_theToolPartsOfALiveSessionAreItsRuntimeProgress(t *testing.T) {
	path, w := buildDB(t, "built-opencode.sql") // its part table as OpenCode's migrations make it
	for _, p := range []struct{ id, session, data string }{
		{"prt_1", "ses_4a1b", `{"type":"tool","tool":"bash","callID":"c1","state":{"status":"completed","input":{"command":"go test ./...","description":"Run the tests"}}}`},
		{"prt_2", "ses_4a1b", `{"type":"tool","tool":"edit","callID":"c2","state":{"status":"error","input":{"filePath":"/home/dev/app/theme.go"}}}`},
		{"prt_3", "ses_4a1c", `{"type":"tool","tool":"grep","callID":"c3","state":{"status":"running","input":{"pattern":"theme"}}}`},
		{"prt_4", "ses_4a1b", `{"type":"text","text":"not a call"}`},
		{"prt_5", "ses_4c00", `{"type":"tool","tool":"bash","callID":"c5","state":{"status":"completed","input":{"command":"ls"}}}`},
	} {
		if _, err := w.Exec(`INSERT INTO part VALUES (?, 'msg_1', ?, 1767607400000, 1767607400000, ?)`, p.id, p.session, p.data); err != nil {
			t.Fatal(err)
		}
	}
	all := sessions(t, path)
	rec := tally.Merge([]*tally.FileState{fold("ses_4a1b", all["ses_4a1b"])})
	s := rec.Session(time.Now())
	want := tally.RuntimeProgress{Calls: 3, Failed: 1, Running: 1, Current: "Searching theme", Last: "Searching theme"}
	if s.Runtime == nil || *s.Runtime != want {
		t.Errorf("runtime %+v, want %+v", s.Runtime, want)
	}
	old := tally.Merge([]*tally.FileState{fold("ses_4c00", all["ses_4c00"])})
	if old.Lists[tally.RuntimeList] != nil {
		t.Error("a session over long before the newest update had its parts read")
	}
}
