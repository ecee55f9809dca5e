package index_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/gemini/geminitest"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/marker"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/tail"
)

// A reader of each capability, through the indexer: the session it folds
// is committed with the markers it read (pending in the store, handed to
// the sink) whichever way its adapter reads it — a log line by line, a
// document whole (streamed when it is over the line limit), a directory
// of files, a database of sessions. What the indexer learns of a fold it
// learns from the fold itself, so no capability of a decoder is lost on
// the way.
func TestIndexer_EveryReaderCommitsItsMarkers(t *testing.T) {
	for _, c := range []struct {
		name string
		// setup writes the agent's files under home and returns the
		// adapter and the session it holds.
		setup func(t *testing.T, home string) (tally.Adapter, string)
		// items is the session's main list as the agent kept it.
		items []string
	}{
		{"line", func(t *testing.T, home string) (tally.Adapter, string) {
			path, sid, lines := planLog(t, home)
			cut := slices.IndexFunc(lines, func(l []byte) bool { return bytes.Contains(l, []byte("progress: T001 start")) })
			if err := os.WriteFile(path, bytes.Join(lines[:cut+1], nil), 0o644); err != nil {
				t.Fatal(err)
			}
			return claude.New(claude.Options{ConfigDir: home}), sid
		}, nil},
		// A legacy Gemini CLI record over the line limit (tail.MaxLine):
		// only a decoder that reads the document as a stream
		// (tally.WholeReader) reads it.
		{"whole document over the line limit", func(t *testing.T, home string) (tally.Adapter, string) {
			const sid = "legacy00-0000-4000-8000-000000000006"
			dir := filepath.Join(home, "tmp", "0f0f", "chats")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := geminitest.LegacyRecord(filepath.Join(dir, "session-2026-11-23T10-00-legacy00.json"), sid, tail.MaxLine+(3<<20)); err != nil {
				t.Fatal(err)
			}
			return gemini.New(gemini.Options{Home: home}), sid
		}, geminitest.LegacyTodos},
		{"directory", func(t *testing.T, home string) (tally.Adapter, string) {
			dir := filepath.Join(home, "lists", "team")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for name, text := range map[string]string{"1.txt": "Plan the change", "2.txt": "Write the code\nprogress: T001 start"} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			return &dirAdapter{root: filepath.Join(home, "lists")}, "team"
		}, []string{"Plan the change", "Write the code\nprogress: T001 start"}},
		{"database", func(t *testing.T, home string) (tally.Adapter, string) {
			path := filepath.Join(home, "sessions.db")
			if err := os.WriteFile(path, []byte("progress: T001 start"), 0o644); err != nil {
				t.Fatal(err)
			}
			return &dbAdapter{path: path}, "db-session"
		}, []string{"Plan the change"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx := context.Background()
			ad, sid := c.setup(t, t.TempDir())
			st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			var got sink
			ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{ad}, Store: st, Markers: &got})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := ix.Scan(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Sessions != 1 {
				t.Fatalf("%d sessions, want 1", sum.Sessions)
			}
			rec, err := st.Record(ctx, sid)
			if err != nil {
				t.Fatal(err)
			}
			if c.items != nil {
				var titles []string
				for _, it := range rec.Lists[""] {
					titles = append(titles, it.Title)
				}
				if !slices.Equal(titles, c.items) {
					t.Errorf("the session's list %q, want %q", titles, c.items)
				}
			}
			rounds := got.take()
			if len(rounds) != 1 || !slices.Equal(markerTexts(rounds[0]), []string{"T001 start"}) || rounds[0][0].Session != sid {
				t.Fatalf("handed over %+v, want the one marker of %s", rounds, sid)
			}
			pending, err := st.PendingMarkers(ctx, 10)
			if err != nil || len(pending) != 1 || pending[0] != rounds[0][0] {
				t.Fatalf("the store's pending markers: %+v, %v", pending, err)
			}
		})
	}
}

// dirAdapter keeps a list as a directory of text files, one item a file
// (its text the item's title), a marker in a file's text read as the
// agent's.
type dirAdapter struct{ root string }

func (a *dirAdapter) Agent() tally.Agent { return "dir-agent" }
func (a *dirAdapter) Roots() []string    { return []string{a.root} }
func (a *dirAdapter) Match(root, path string) (tally.FileInfo, bool) {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		return tally.FileInfo{}, false
	}
	list, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return tally.FileInfo{Path: filepath.Join(root, list), Session: list, Layout: tally.LayoutDirectory}, true
}

func (a *dirAdapter) ReadDirectory(_ context.Context, dir string) ([]tally.Event, []tally.Diagnostic, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.txt"))
	if err != nil {
		return nil, nil, err
	}
	slices.Sort(names)
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	ev := tally.Event{Kind: tally.EventTaskResync, At: at}
	var evs []tally.Event
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, nil, err
		}
		ev.Items = append(ev.Items, tally.Item{ID: strings.TrimSuffix(filepath.Base(n), ".txt"), Title: string(b), Status: tally.StatusPending, Source: tally.SourceTask})
		for _, m := range marker.Append(nil, b, int64(i), at) {
			evs = append(evs, tally.Event{Kind: tally.EventMarker, At: at, Marker: m})
		}
	}
	return append([]tally.Event{ev}, evs...), nil, nil
}

// dbAdapter is a database holding one session, whose list is one item and
// whose model said what the file holds.
type dbAdapter struct{ path string }

func (a *dbAdapter) Agent() tally.Agent { return "db-agent" }
func (a *dbAdapter) Roots() []string    { return []string{filepath.Dir(a.path)} }
func (a *dbAdapter) Match(_, path string) (tally.FileInfo, bool) {
	return tally.FileInfo{Path: a.path, Layout: tally.LayoutDatabase}, path == a.path
}

func (a *dbAdapter) ReadDatabase(_ context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	at := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	evs := []tally.Event{{Kind: tally.EventSnapshot, At: at, Items: []tally.Item{{Title: "Plan the change", Status: tally.StatusInProgress}}}}
	for _, m := range marker.Append(nil, b, 1, at) {
		evs = append(evs, tally.Event{Kind: tally.EventMarker, At: at, Marker: m})
	}
	return map[string][]tally.Event{"db-session": evs}, nil, nil
}
