package e2e

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally/internal/testhome"
)

// TestScan_KilledAtRandomPointsResumesToTheCleanState is the crash
// test: "a restart, even after kill -9 in the middle of a scan, resumes
// from the stored offsets and ends in exactly the state a clean scan gives:
// no duplicate and no lost item".
func TestScan_KilledAtRandomPointsResumesToTheCleanState(t *testing.T) {
	home := claudeHome(t, 120)
	cleanDB := filepath.Join(t.TempDir(), "clean.db")
	start := time.Now()
	tally(t, home, cleanDB, "scan")
	full := time.Since(start)
	want := sessionsJSON(t, home, cleanDB)

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, a clean scan takes %v", seed, full)
	rng := rand.New(rand.NewPCG(seed, 1))
	killed := 0
	for trial := range 6 {
		db := filepath.Join(t.TempDir(), "crash.db")
		// Kill it several times at random points, committing often so
		// the kills land between, before and inside commits.
		for range 3 {
			cmd := exec.Command(tallyBin, "scan", "--commit-every", "1ms", "--db", db, "--claude-dir", home)
			cmd.Env = testhome.Environ(filepath.Join(filepath.Dir(db), "home"))
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Duration(rng.Int64N(int64(full) + 1)))
			if cmd.Process.Signal(syscall.SIGKILL) == nil {
				killed++
			}
			cmd.Wait()
		}
		tally(t, home, db, "scan")
		got := sessionsJSON(t, home, db)
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d (seed %d): state after kill -9 and restart differs from a clean scan\nclean:   %.600s\nresumed: %.600s", trial, seed, want, got)
		}
	}
	if killed == 0 {
		t.Fatal("no scan was killed: the test proved nothing")
	}
}

// sessionsJSON is every session as the CLI prints it, normalised so that
// only the facts compare: the order of sessions with equal activity times
// is not part of the contract.
func sessionsJSON(t *testing.T, home, db string) []byte {
	t.Helper()
	out := tally(t, home, db, "sessions", "--json")
	var sessions []map[string]any
	if err := json.Unmarshal(out, &sessions); err != nil {
		t.Fatalf("sessions --json: %v\n%s", err, out)
	}
	byID := map[string]any{}
	for _, s := range sessions {
		byID[s["id"].(string)] = s
	}
	norm, _ := json.MarshalIndent(byID, "", " ")
	return norm
}
