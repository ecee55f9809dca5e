package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/gemini/geminitest"
)

const geminiCaptured = "../testdata/fixtures/captured/gemini-cli-0.61.0"

// A Gemini session is listed under its full id, the one `gemini --resume`
// takes and the chat record's first line holds, not the 8 characters of
// its file name; those 8 characters still find it, as any prefix does.
func TestRun_geminiSessionHasItsFullID(t *testing.T) {
	st := newStore(t)
	home := filepath.Join(geminiCaptured, "write-todos", "gemini_home")
	if code, _, errOut := run(t, st, nil, "scan", "--gemini-home", home); code != ExitOK {
		t.Fatalf("scan: exit %d: %s", code, errOut)
	}
	const full = "1564209c-0c60-4a4a-a7cd-21b9d55db59a" // the header's sessionId
	_, out, _ := run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0].ID != full {
		t.Fatalf("sessions --json: %v, want one session %s\n%s", err, full, out)
	}
	code, out, errOut := run(t, st, nil, "show", "1564209c")
	if code != ExitOK || !strings.Contains(out, "session "+full) {
		t.Errorf("show by the file name's 8 characters: exit %d, %s\n%s", code, errOut, out)
	}
}

// A legacy Gemini CLI record (a JSON document rewritten whole) over the
// line limit is read as a stream by tally scan, as by the adapter: one
// session with its list, not "over the line limit; skipped".
func TestRun_scanReadsALegacyRecordOverTheLineLimit(t *testing.T) {
	st := newStore(t)
	home := t.TempDir()
	dir := filepath.Join(home, "tmp", "0f0f", "chats")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const sid = "legacy00-0000-4000-8000-000000000006"
	// 19.6 MiB, the size of the record the bug was found with.
	if err := geminitest.LegacyRecord(filepath.Join(dir, "session-2026-11-23T10-00-legacy00.json"), sid, 19_600<<10); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := run(t, st, nil, "scan", "--gemini-home", home)
	if code != ExitOK || strings.Contains(errOut, "line limit") {
		t.Fatalf("scan: exit %d: %s", code, errOut)
	}
	_, out, _ := run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); err != nil || len(list) != 1 || list[0].ID != sid || list[0].Progress.Total != len(geminitest.LegacyTodos) {
		t.Fatalf("sessions --json: %v, want session %s with its %d items\n%s", err, sid, len(geminitest.LegacyTodos), out)
	}
}

// TestRun_showNamesABlockerByItsTitle: in the captured Gemini CLI tracker
// session "Update README" depends on task 33a9ea, whose own file titles it
// "Add unit test". show names the blocker by that title; --json keeps the
// id for programs.
func TestRun_showNamesABlockerByItsTitle(t *testing.T) {
	st := newStore(t)
	home := filepath.Join(geminiCaptured, "task-tracker", "gemini_home")
	const sid = "1fb695ac-76cc-4120-8ded-da2b5d3b24a5"
	var blocker, waiter struct {
		Title        string
		Dependencies []string
	}
	for file, v := range map[string]any{"33a9ea.json": &blocker, "51774f.json": &waiter} {
		b, err := os.ReadFile(filepath.Join(home, "tmp/work", sid, "tracker", file))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatal(err)
		}
	}
	if len(waiter.Dependencies) != 1 || waiter.Dependencies[0] != "33a9ea" {
		t.Fatalf("the tracker's files are not the case this test is about: %+v", waiter)
	}
	if code, _, errOut := run(t, st, nil, "scan", "--gemini-home", home); code != ExitOK {
		t.Fatalf("scan: exit %d: %s", code, errOut)
	}
	_, out, _ := run(t, st, nil, "show", sid)
	if want := waiter.Title + "  (blocked by " + blocker.Title + ")"; !strings.Contains(out, want) || strings.Contains(out, "33a9ea") {
		t.Errorf("show says\n%s\nwant %q and no id", out, want)
	}
	_, out, _ = run(t, st, nil, "show", "--json", sid)
	var s tally.Session
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	for _, it := range s.Items {
		if it.Title == waiter.Title && (len(it.BlockedBy) != 1 || it.BlockedBy[0] != "33a9ea") {
			t.Errorf("--json blockedBy = %q, want the id", it.BlockedBy)
		}
	}
}
