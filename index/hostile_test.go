package index_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// TestIndexer_Run_APipeNamedLikeALogIsNeverOpened: opening a named pipe
// for reading waits for a writer, for ever if none comes. One named like a
// log froze every session's updates, and shutdown with them. Only regular
// files are opened, so the session written next still shows and Run stops
// at once.
func TestIndexer_Run_APipeNamedLikeALogIsNeverOpened(t *testing.T) {
	l := startLive(t, 100*time.Millisecond) // catch-up scans meet the pipe too
	dir := filepath.Join(l.home, "projects", "-work-p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "00000000-0000-4000-8000-000000000000.jsonl")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Let a reader stuck in open go, so that a failing test ends.
		if f, err := os.OpenFile(fifo, os.O_RDWR, 0); err == nil {
			f.Close()
		}
	})
	time.Sleep(300 * time.Millisecond) // a notification and a few scans
	sid, lines := capture(t, "todowrite")
	appendTo(t, filepath.Join(dir, sid+".jsonl"), bytes.Join(lines, nil))
	l.waitFor(sid, "the session written after the pipe appeared", func(r tally.Record) bool { return len(r.Lists[""]) == 3 })
	l.stop()
}

// stuckAdapter claims one database whose read never ends until released:
// a file system that hangs (a dead network mount) looks so to the indexer.
type stuckAdapter struct {
	root    string
	reading chan struct{}
	release chan struct{}
}

func (a *stuckAdapter) Agent() tally.Agent { return hermes.Agent }
func (a *stuckAdapter) Roots() []string    { return []string{a.root} }
func (a *stuckAdapter) Match(root, path string) (tally.FileInfo, bool) {
	return tally.FileInfo{Path: path, Layout: tally.LayoutDatabase}, filepath.Base(path) == "stuck.db"
}
func (a *stuckAdapter) ReadDatabase(ctx context.Context, path string) (map[string][]tally.Event, []tally.Diagnostic, error) {
	close(a.reading)
	<-a.release // deaf to ctx, as a read(2) in the kernel is
	return nil, nil, nil
}

// TestIndexer_Run_ShutdownNeverWaitsForARead: a read that does not end
// must not keep Run (and so the program) from stopping.
func TestIndexer_Run_ShutdownNeverWaitsForARead(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "stuck.db"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := &stuckAdapter{root: root, reading: make(chan struct{}), release: make(chan struct{})}
	t.Cleanup(func() { close(a.release) })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{a}, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	<-a.reading
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run is still waiting for a read 5 s after it was told to stop")
	}
}

// TestIndexer_Scan_RandomBytesAreMalformedAndNoSession: a .jsonl of random
// bytes is counted as malformed, with a message, and makes no session:
// there is nothing to show, not a session of 0001-01-01.
func TestIndexer_Scan_RandomBytesAreMalformedAndNoSession(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-work-p")
	os.MkdirAll(dir, 0o755)
	const sid = "44444444-0000-4000-8000-000000000004"
	junk := make([]byte, 64<<10)
	rand.NewChaCha8([32]byte{1}).Read(junk)
	if err := os.WriteFile(filepath.Join(dir, sid+".jsonl"), junk, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var diags []tally.Diagnostic
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st,
		OnDiagnostic: func(d tally.Diagnostic) { diags = append(diags, d) }})
	if err != nil {
		t.Fatal(err)
	}
	changes := ix.Subscribe(100)
	defer changes.Close()
	sum, err := ix.Scan(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Malformed == 0 || len(diags) == 0 {
		t.Errorf("malformed %d, %d messages: random bytes went unremarked", sum.Malformed, len(diags))
	}
	if rec, err := st.Record(ctx, sid); err == nil {
		t.Errorf("a session was made of random bytes: %+v", rec.Session(time.Now()))
	}
	select {
	case c := <-changes.C:
		t.Errorf("a change was published for random bytes: %v %s", c.Kind, c.ID)
	default:
	}
}

// TestIndexer_Run_LinkedHomeAndProjectFolderAreFollowed: Claude Code's
// projects folder kept on another disk and linked in, and a project folder
// linked into it: their sessions are found, and an append to one shows
// live, the directory behind the link being watched.
func TestIndexer_Run_LinkedHomeAndProjectFolderAreFollowed(t *testing.T) {
	l := startLive(t, time.Hour) // notifications alone must do it
	elsewhere := t.TempDir()
	other := t.TempDir()
	sid, lines := capture(t, "todowrite")
	os.MkdirAll(filepath.Join(elsewhere, "-work-a"), 0o755)
	appendTo(t, filepath.Join(elsewhere, "-work-a", sid+".jsonl"), bytes.Join(lines, nil))
	linked := filepath.Join(other, sid+".jsonl")
	appendTo(t, linked, bytes.Join(lines[:len(lines)/2], nil))
	if err := os.Symlink(other, filepath.Join(elsewhere, "-work-b")); err != nil {
		t.Fatal(err)
	}
	// The home had a projects folder of its own; it is replaced by a link.
	projects := filepath.Join(l.home, "projects")
	if err := os.Remove(projects); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, projects); err != nil {
		t.Fatal(err)
	}
	sum, err := l.ix.Scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Files != 2 {
		t.Fatalf("scan read %d files, want the 2 behind the links", sum.Files)
	}
	appendTo(t, linked, bytes.Join(lines[len(lines)/2:], nil))
	l.waitFor(sid, "the lines appended behind the link", func(r tally.Record) bool {
		return r.Stats.Files == 2 && r.Stats.Lines == int64(len(lines)+len(lines))
	})
}

// TestIndexer_Run_ALinkedLogIsOneFileForScanAndNotification: a log
// linked into a project folder is named the same by the notification that
// finds it and by the catch-up scans after, so it is never reported
// removed.
func TestIndexer_Run_ALinkedLogIsOneFileForScanAndNotification(t *testing.T) {
	l := startLive(t, 50*time.Millisecond)
	sid, lines := capture(t, "todowrite")
	target := filepath.Join(t.TempDir(), "kept-elsewhere.jsonl")
	appendTo(t, target, bytes.Join(lines, nil))
	dir := filepath.Join(l.home, "projects", "-work-p")
	os.MkdirAll(dir, 0o755)
	time.Sleep(100 * time.Millisecond) // the new folder is watched
	if err := os.Symlink(target, filepath.Join(dir, sid+".jsonl")); err != nil {
		t.Fatal(err)
	}
	l.waitFor(sid, "the linked log's list", func(r tally.Record) bool { return len(r.Lists[""]) == 3 })
	deadline := time.After(500 * time.Millisecond) // ten catch-up scans
	for {
		select {
		case c := <-l.changes:
			if c.Kind == index.SessionRemoved {
				t.Fatalf("session %s reported removed by a catch-up scan", c.ID)
			}
		case <-deadline:
			return
		}
	}
}

// TestIndexer_Scan_AnUnreadableFileIsReportedOncePerVersion: a catch-up
// scan every few seconds does not read, nor report, a file again until it
// changes.
func TestIndexer_Scan_AnUnreadableFileIsReportedOncePerVersion(t *testing.T) {
	home := t.TempDir()
	bad := filepath.Join(home, "state.db")
	if err := os.WriteFile(bad, bytes.Repeat([]byte("garbage "), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var diags []tally.Diagnostic
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{hermes.New(hermes.Options{Home: home})}, Store: st,
		OnDiagnostic: func(d tally.Diagnostic) { diags = append(diags, d) }})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int{1, 0} {
		sum, err := ix.Scan(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Unreadable != want || len(diags) != 1 || diags[0].Path != bad {
			t.Fatalf("scan %d: %d unreadable, diagnostics %v; want %d and one naming %s", i+1, sum.Unreadable, diags, want, bad)
		}
	}
	if err := os.WriteFile(bad, bytes.Repeat([]byte("other garbage "), 200), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, _ := ix.Scan(ctx); sum.Unreadable != 1 || len(diags) != 2 {
		t.Errorf("after the file changed: %d unreadable, %d diagnostics, want it read and reported again", sum.Unreadable, len(diags))
	}
}

// TestIndexer_Scan_CountsSessionsNotFilesThatMakeNone: a scan says how
// many sessions the index holds; a file of random bytes makes none, so it
// adds nothing to the count, in the scan that read it or a later one.
func TestIndexer_Scan_CountsSessionsNotFilesThatMakeNone(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-work-p")
	os.MkdirAll(dir, 0o755)
	junk := make([]byte, 4<<10)
	rand.NewChaCha8([32]byte{2}).Read(junk)
	if err := os.WriteFile(filepath.Join(dir, "55555555-0000-4000-8000-000000000005.jsonl"), junk, 0o644); err != nil {
		t.Fatal(err)
	}
	sid, lines := capture(t, "todowrite")
	appendTo(t, filepath.Join(dir, sid+".jsonl"), bytes.Join(lines, nil))
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, run := range []string{"the scan that reads them", "a later scan, by another indexer"} {
		ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st})
		if err != nil {
			t.Fatal(err)
		}
		sum, err := ix.Scan(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Sessions != 1 {
			t.Errorf("%s counts %d sessions, want the 1 the capture makes", run, sum.Sessions)
		}
	}
}
