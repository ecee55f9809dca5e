package hermes

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tallyhq/tally"
)

// buildDB creates dir/state.db from a testdata script, in WAL mode as
// Hermes keeps it, and returns its path and an open writer connection.
func buildDB(t testing.TB, script string) (string, *sql.DB) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), dbName)
	w, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)")
	if err != nil {
		t.Fatal(err)
	}
	w.SetMaxOpenConns(1)
	t.Cleanup(func() { w.Close() })
	if _, err := w.Exec(string(src)); err != nil {
		t.Fatalf("%s: %v", script, err)
	}
	return path, w
}

// sessions reads path with the adapter's database decoder.
func sessions(t testing.TB, path string) map[string][]tally.Event {
	t.Helper()
	a := New(Options{Home: filepath.Dir(path)})
	fi, ok := a.Match(filepath.Dir(path), path)
	if !ok {
		t.Fatalf("Match(%s) = false", path)
	}
	dec, err := a.NewDecoder(fi, nil)
	if err != nil {
		t.Fatal(err)
	}
	md, ok := dec.(tally.MultiDecoder)
	if !ok {
		t.Fatalf("decoder for %s is not a MultiDecoder", path)
	}
	got, err := md.Sessions(context.Background(), path)
	if err != nil {
		t.Fatalf("Sessions: %v", err)
	}
	return got
}

// fold applies events the way the indexer does for one session.
func fold(id string, evs []tally.Event) *tally.FileState {
	st := &tally.FileState{Session: id, Agent: tally.AgentHermes}
	for _, ev := range evs {
		st.Apply(ev)
	}
	return st
}

func items(st *tally.FileState) []tally.Item {
	if l := st.Lists[""]; l != nil {
		return l.Items()
	}
	return nil
}

func todo(id, title string, s tally.Status) tally.Item {
	return tally.Item{ID: id, Title: title, Status: s, Source: tally.SourceTodo}
}

func raw(it tally.Item, word string) tally.Item {
	it.RawStatus = word
	return it
}

func sortStrings(s []string) { slices.Sort(s) }
