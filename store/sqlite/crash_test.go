package sqlite

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tallyhq/tally"
)

// crashChildEnv makes the test binary a writer that commits generation
// after generation until it is killed.
const crashChildEnv = "TALLY_SQLITE_CRASH_CHILD"

const crashFiles = 200

func crashBatch(gen int) tally.Batch {
	var b tally.Batch
	for i := range crashFiles {
		id := fmt.Sprintf("s%03d", i)
		b.Files = append(b.Files, &tally.FileState{Path: "/logs/" + id, Session: id, Offset: int64(gen), Title: strconv.Itoa(gen)})
		b.Sessions = append(b.Sessions, tally.Record{ID: id, Title: strconv.Itoa(gen), LastActivity: time.Unix(int64(i), 0)})
	}
	return b
}

// TestCommit_SurvivesKill kills a committing process with SIGKILL at
// random moments: the database must always hold exactly one generation,
// files and sessions alike, and open cleanly.
func TestCommit_SurvivesKill(t *testing.T) {
	if path := os.Getenv(crashChildEnv); path != "" {
		crashChild(t, path)
		return
	}
	if testing.Short() {
		t.Skip("starts child processes")
	}
	path := filepath.Join(t.TempDir(), "tally.db")
	for round := range 3 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCommit_SurvivesKill$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+path)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(400*time.Millisecond + rand.N(400*time.Millisecond))
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		cmd.Wait() //nolint:errcheck // killed on purpose
		gen := checkOneGeneration(t, path)
		t.Logf("round %d: killed at generation %d", round, gen)
	}
}

func crashChild(t *testing.T, path string) {
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	start := 0
	if recs, err := s.Records(context.Background(), tally.SessionFilter{Limit: 1}); err == nil && len(recs) == 1 {
		start, _ = strconv.Atoi(recs[0].Title)
	}
	for gen := start + 1; ; gen++ {
		if err := s.Commit(context.Background(), crashBatch(gen)); err != nil {
			t.Fatal(err)
		}
	}
}

func checkOneGeneration(t *testing.T, path string) int {
	t.Helper()
	s := openTemp(t, path)
	defer s.Close()
	ctx := context.Background()
	fs := allFiles(t, ctx, s)
	recs, err := s.Records(ctx, tally.SessionFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) == 0 {
		return 0 // killed before the first commit: the old (empty) state
	}
	if len(fs) != crashFiles || len(recs) != crashFiles {
		t.Fatalf("after kill: %d files and %d sessions, want %d of each", len(fs), len(recs), crashFiles)
	}
	gen := fs[0].Offset
	for _, f := range fs {
		if f.Offset != gen || f.Title != strconv.FormatInt(gen, 10) {
			t.Fatalf("after kill: %s at generation %d (title %s), %s at %d: a commit landed in part", fs[0].Path, gen, f.Title, f.Path, f.Offset)
		}
	}
	for _, r := range recs {
		if r.Title != strconv.FormatInt(gen, 10) {
			t.Fatalf("after kill: session %s at generation %s, files at %d: a commit landed in part", r.ID, r.Title, gen)
		}
	}
	return int(gen)
}
