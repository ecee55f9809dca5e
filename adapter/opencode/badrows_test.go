package opencode

import (
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// TestSessions_BadRows: a todo row whose session is gone and a message
// whose data is not JSON (the fixture's msg_3) are each reported with
// their table, key and what was wrong; every session still reads.
func TestSessions_BadRows(t *testing.T) {
	path, w := buildDB(t, "built-opencode.sql")
	if _, err := w.Exec(`PRAGMA foreign_keys = OFF;
		INSERT INTO todo VALUES ('ses_gone', 'Orphan step', 'pending', 'low', 3, 1767607300000, 1767607300000)`); err != nil {
		t.Fatal(err)
	}
	all, diags := readDB(t, path)

	want := [][]string{
		{`todo at position 3 of session "ses_gone"`, "no such session", "skipped"},
		{`message "msg_3" (session ses_4c00`, "data is not JSON"},
	}
	if len(diags) != len(want) {
		t.Fatalf("%d diagnostics, want %d: %v", len(diags), len(want), diags)
	}
	for i, words := range want {
		if diags[i].Path != path {
			t.Errorf("diagnostic %d names %s, want %s", i, diags[i].Path, path)
		}
		for _, s := range words {
			if !strings.Contains(diags[i].Msg, s) {
				t.Errorf("diagnostic %d %q does not say %q", i, diags[i].Msg, s)
			}
		}
	}

	if _, ok := all["ses_gone"]; ok {
		t.Error("the orphan todo made a session")
	}
	if got := list(fold("ses_4a1b", all["ses_4a1b"]), ""); len(got) != 5 {
		t.Errorf("a sound session lost its list: %+v", got)
	}
	old := fold("ses_4c00", all["ses_4c00"])
	if old.Signal != tally.SignalEnded || old.Title != "Old chat" {
		t.Errorf("the session with the bad message: signal %v title %q", old.Signal, old.Title)
	}
}
