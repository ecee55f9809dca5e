package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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

// readOnlyStore is a store every commit of which fails as a read-only
// SQLite file's does.
type readOnlyStore struct{ testStore }

func (readOnlyStore) Commit(context.Context, tally.Batch) error {
	return tally.Errorf(tally.CodeUnavailable, "sqlite.Commit", "store /srv/tally.db: attempt to write a readonly database: %w", tally.ErrStoreReadOnly)
}

// TestScan_aStoreThatCannotBeWrittenIsSaidOnceWithNoSummary: scan printed
// a full summary of what it read and then exited 5; watch said the same
// error again every few seconds.
func TestScan_aStoreThatCannotBeWrittenIsSaidOnceWithNoSummary(t *testing.T) {
	st := readOnlyStore{newStore(t)}
	env := map[string]string{"CLAUDE_CONFIG_DIR": filepath.Join(captured, "tasks/config")}
	code, out, errOut := run(t, st, env, "scan")
	if code != ExitUnavailable || out != "" || strings.Count(errOut, "readonly") != 1 {
		t.Errorf("scan: exit %d, stdout %q, stderr %q; want 5, no summary, the error once", code, out, errOut)
	}
	var o, e syncBuffer
	a := &app{env: testEnv(st, &o, &e, env), rescan: 50 * time.Millisecond}
	done := make(chan ExitCode, 1)
	go func() { done <- a.run(context.Background(), []string{"watch"}) }()
	select {
	case code := <-done:
		if code != ExitUnavailable || strings.Count(e.String(), "readonly") != 1 {
			t.Errorf("watch: exit %d, stderr %q; want 5 and the error once", code, e.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("watch goes on over a store it cannot write; stderr %q", e.String())
	}
}
