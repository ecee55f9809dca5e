package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

// TestStore_ADeletedStoreIsNoticed: a store whose file was deleted while
// it was open would take every later write into a file nobody reads: the
// next write, and the next poll for changes, say the store is gone.
func TestStore_ADeletedStoreIsNoticed(t *testing.T) {
	ctx := context.Background()
	for _, replace := range []bool{false, true} {
		path := filepath.Join(t.TempDir(), "tally.db")
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		rec := tally.Record{ID: "s1", Agent: claude.Agent}
		if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{rec}}); err != nil {
			t.Fatal(err)
		}
		os.Remove(path)
		if replace {
			os.WriteFile(path, nil, 0o644)
		}
		err = s.Commit(ctx, tally.Batch{Sessions: []tally.Record{rec}})
		if !errors.Is(err, tally.ErrStoreGone) || !strings.Contains(err.Error(), path) {
			t.Errorf("replaced %v: commit into a deleted store: %v", replace, err)
		}
		if _, _, err := s.Changed(ctx, 0); !errors.Is(err, tally.ErrStoreGone) {
			t.Errorf("replaced %v: Changed on a deleted store: %v", replace, err)
		}
	}
}

// TestStore_ReadingNeedsNoWrite: a store whose schema is current is opened
// and read without a connection for writing, which a store the process
// may not write would refuse.
func TestStore_ReadingNeedsNoWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tally.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{{ID: "s1", Agent: claude.Agent}}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Records(ctx, tally.SessionFilter{}); err != nil {
		t.Fatal(err)
	}
	if n := s.w.Stats().OpenConnections; n != 0 {
		t.Errorf("%d connections for writing after an open and a read, want none", n)
	}
}
