package storetest

import (
	"context"
	"io"
	"reflect"
	"sort"
	"testing"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store"
)

// Opener returns a new, empty store for one subtest, a whole one (see
// package store). The suites close it.
type Opener func(t *testing.T) store.Store

// CoreOpener returns a new, empty store of the core contract, tally.Store,
// for one subtest. Run closes it.
type CoreOpener func(t *testing.T) tally.Store

// Run checks the core of a store, tally.Store, against the contract: the
// part the indexer relies on, which a store needs nothing but to keep
// files and records to pass.
func Run[S tally.Store](t *testing.T, opener func(t *testing.T) S) {
	open := CoreOpener(func(t *testing.T) tally.Store { return opener(t) })
	t.Run("FileState round-trips exactly", func(t *testing.T) { testFileRoundTrip(t, open) })
	t.Run("Record round-trips exactly", func(t *testing.T) { testRecordRoundTrip(t, open) })
	t.Run("empty store and empty batch", func(t *testing.T) { testEmpty(t, open) })
	t.Run("commit overwrites", func(t *testing.T) { testUpsert(t, open) })
	t.Run("removal", func(t *testing.T) { testRemoval(t, open) })
	t.Run("failed batch leaves previous state", func(t *testing.T) { testAtomic(t, open) })
	t.Run("Records order and filters", func(t *testing.T) { testFilters(t, open) })
	t.Run("Session by id or prefix", func(t *testing.T) { testLookup(t, open) })
	t.Run("readers see whole commits", func(t *testing.T) { testConcurrentReaders(t, open) })
	t.Run("Changed since a mark", func(t *testing.T) { testChanged(t, open) })
	t.Run("ChangedLimit reads the changes a page at a time", func(t *testing.T) { testChangedLimit(t, open) })
	t.Run("SessionFiles", func(t *testing.T) { testSessionFiles(t, open) })
}

func openStore(t *testing.T, open CoreOpener) tally.Store {
	t.Helper()
	s := open(t)
	closeAtEnd(t, s)
	return s
}

// openFull is openStore for a whole store.
func openFull(t *testing.T, open Opener) store.Store {
	t.Helper()
	s := open(t)
	closeAtEnd(t, s)
	return s
}

func closeAtEnd(t *testing.T, s io.Closer) {
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
}

func commit(t *testing.T, s tally.Store, b tally.Batch) {
	t.Helper()
	if err := s.Commit(context.Background(), b); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

// files returns the saved states by path: every file FileMarks names,
// read back with File, its mark checked against the state.
func files(t *testing.T, s tally.Store) map[string]*tally.FileState {
	t.Helper()
	marks, err := s.FileMarks(context.Background())
	if err != nil {
		t.Fatalf("FileMarks: %v", err)
	}
	m := make(map[string]*tally.FileState, len(marks))
	for _, mk := range marks {
		if m[mk.Path] != nil {
			t.Errorf("FileMarks returned %s twice", mk.Path)
		}
		f, err := s.File(context.Background(), mk.Path)
		if err != nil {
			t.Fatalf("File(%s): %v", mk.Path, err)
		}
		if got := f.Mark(); got != mk {
			t.Errorf("mark of %s = %+v, the state says %+v", mk.Path, mk, got)
		}
		m[mk.Path] = f
	}
	if _, err := s.File(context.Background(), "/no/such/file"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("File of an unknown path: %v, want not found", err)
	}
	return m
}

func sessions(t *testing.T, s tally.Store, f tally.SessionFilter) []tally.Record {
	t.Helper()
	got, err := s.Records(context.Background(), f)
	if err != nil {
		t.Fatalf("Records(%+v): %v", f, err)
	}
	return got
}

func ids(recs []tally.Record) []string {
	out := make([]string, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func equal(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}
