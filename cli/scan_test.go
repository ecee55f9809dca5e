package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
)

// TestScan_AGarbageDatabaseIsADataErrorNotAUsageError: an agent's database
// that is no database is bad data in one file, not a mistake in how tally
// was run: the scan reports the file, indexes every other session, and
// exits with the code of data it could not read, without "Run 'tally
// --help'".
func TestScan_AGarbageDatabaseIsADataErrorNotAUsageError(t *testing.T) {
	st := newStore(t)
	hermes := t.TempDir()
	bad := filepath.Join(hermes, "state.db")
	if err := os.WriteFile(bad, []byte(strings.Repeat("not a database, garbage. ", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks/config"), "HERMES_HOME": hermes}
	code, out, errOut := run(t, st, env, "scan", "--json")
	if code != ExitData {
		t.Errorf("exit %d, want %d (data)", code, ExitData)
	}
	if !strings.Contains(errOut, bad) || strings.Contains(errOut, "--help") {
		t.Errorf("stderr does not name the bad file, or sends to --help:\n%s", errOut)
	}
	var sum summaryJSON
	if err := json.Unmarshal([]byte(out), &sum); err != nil || sum.Unreadable != 1 {
		t.Errorf("summary %+v (%v), want 1 unreadable file", sum, err)
	}
	code, out, _ = run(t, st, nil, "sessions", "--json")
	var list []tally.Session
	if err := json.Unmarshal([]byte(out), &list); code != ExitOK || err != nil || len(list) != 1 {
		t.Errorf("sessions after the scan: exit %d, %v, %d sessions, want Claude's 1", code, err, len(list))
	}
}
