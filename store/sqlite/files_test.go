package sqlite

import (
	"context"
	"testing"

	"github.com/tallyhq/tally"
)

// allFiles reads every saved state the way the indexer can: the marks,
// then each file's state.
func allFiles(t *testing.T, ctx context.Context, s *Store) []*tally.FileState {
	t.Helper()
	marks, err := s.FileMarks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*tally.FileState
	for _, m := range marks {
		st, err := s.File(ctx, m.Path)
		if err != nil {
			t.Fatalf("File(%s): %v", m.Path, err)
		}
		out = append(out, st)
	}
	return out
}
