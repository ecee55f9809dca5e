package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/storetest"
	"modernc.org/sqlite"
)

func TestStore(t *testing.T) {
	temp := func(t *testing.T) store.Store {
		return openTemp(t, filepath.Join(t.TempDir(), "tally.db"))
	}
	storetest.Run(t, temp)
	storetest.RunTasks(t, temp)
	storetest.RunMarkers(t, temp)
	shared := func(t *testing.T) storetest.Opener {
		path := filepath.Join(t.TempDir(), "tally.db")
		return func(t *testing.T) store.Store { return openTemp(t, path) }
	}
	storetest.RunShared(t, shared)
	storetest.RunSharedMarkers(t, shared)
	storetest.RunTeam(t, temp)
	storetest.RunTeamShared(t, shared)
}

func openTemp(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(context.Background(), path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

// rawDB opens the file behind the store's back, as the sqlite3 shell or
// another program would.
func rawDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func record(id string, last time.Time) tally.Record {
	return tally.Record{ID: id, Agent: claude.Agent, Project: "/p", LastActivity: last,
		Lists: map[string][]tally.Item{"": {{Title: "step", Status: tally.StatusInProgress}}}}
}

func TestOpen_ReopenKeepsData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "tally.db")
	ctx := context.Background()
	s := openTemp(t, path)
	st := &tally.FileState{Path: "/logs/a.jsonl", Agent: codex.Agent, Session: "s1", Offset: 4242, Decoder: []byte{9, 9}}
	if err := s.Commit(ctx, tally.Batch{Files: []*tally.FileState{st}, Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openTemp(t, path)
	defer s.Close()
	fs := allFiles(t, ctx, s)
	if len(fs) != 1 || fs[0].Offset != 4242 || string(fs[0].Decoder) != "\x09\x09" {
		t.Fatalf("after reopen the files are %+v; want the offset 4242 and decoder state saved before", fs)
	}
	if _, err := s.Record(ctx, "s1"); err != nil {
		t.Fatalf("after reopen Session(s1): %v", err)
	}
}

func TestOpen_RefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	openTemp(t, path).Close()
	if _, err := rawDB(t, path).Exec("PRAGMA user_version = 99"); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Fatalf("Open of a schema-99 database: %v, want unavailable", err)
	}
	for _, want := range []string{path, "99", "upgrade tally"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

func TestOpen_NotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("this is a text file, not SQLite\n", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if tally.ErrorCode(err) != tally.CodeUnavailable || !strings.Contains(err.Error(), path) {
		t.Fatalf("Open of a text file: %v, want unavailable naming %s", err, path)
	}
}

// TestOpen_errorsSayNoSQLiteNumbers: "file is not a database (26)" —
// the number means nothing to a person; the words and the hint do.
func TestOpen_errorsSayNoSQLiteNumbers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	if err := os.WriteFile(path, []byte(strings.Repeat("this is a text file, not SQLite\n", 200)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(context.Background(), path)
	if msg := tally.UserMessage(err); regexp.MustCompile(`\(\d+\)`).MatchString(msg) || !strings.Contains(msg, "not a database") {
		t.Errorf("message %q, want SQLite's words without its number", msg)
	}
	if _, ok := errors.AsType[*sqlite.Error](err); !ok {
		t.Errorf("the driver's error is no longer beneath: %v", err)
	}
}

func TestOpen_UnwritableDirectory(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(blocker, "tally.db") // a directory that is a file
	_, err := Open(context.Background(), path)
	if tally.ErrorCode(err) != tally.CodeUnavailable || !strings.Contains(err.Error(), blocker) {
		t.Fatalf("Open under a file: %v, want unavailable naming the path", err)
	}
}

func TestDefaultPath(t *testing.T) {
	if p, _ := DefaultPath("/xdg", "/home/ana"); p != "/xdg/tally/tally.db" {
		t.Errorf("with XDG_DATA_HOME: %s", p)
	}
	if p, _ := DefaultPath("relative", "/home/ana"); p != "/home/ana/.local/share/tally/tally.db" {
		t.Errorf("with a relative XDG_DATA_HOME: %s", p)
	}
	if p, _ := DefaultPath("", "/home/ana"); p != "/home/ana/.local/share/tally/tally.db" {
		t.Errorf("default: %s", p)
	}
	if _, err := DefaultPath("", ""); tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Errorf("no home: %v", err)
	}
}

func TestMigrations(t *testing.T) {
	if SchemaVersion() < 1 || migrations[0].Name != "001_init.sql" {
		t.Fatalf("embedded migrations: %+v", migrations)
	}
}

// TestCommit_RollsBackInsideTransaction makes SQLite itself fail the last
// statement of a batch (a trigger refuses one session), after the batch's
// files were already written in the transaction: none of it may stay.
func TestCommit_RollsBackInsideTransaction(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	s := openTemp(t, path)
	defer s.Close()
	ctx := context.Background()
	old := &tally.FileState{Path: "/a", Session: "s1", Offset: 10}
	if err := s.Commit(ctx, tally.Batch{Files: []*tally.FileState{old}, Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	_, err := rawDB(t, path).Exec(`CREATE TRIGGER poison BEFORE INSERT ON sessions WHEN NEW.id = 'poison'
		BEGIN SELECT RAISE(ABORT, 'poisoned row'); END`)
	if err != nil {
		t.Fatal(err)
	}
	err = s.Commit(ctx, tally.Batch{
		Files:           []*tally.FileState{{Path: "/a", Session: "s1", Offset: 99}, {Path: "/b", Session: "s2", Offset: 5}},
		Sessions:        []tally.Record{record("s2", time.Now()), record("poison", time.Now())},
		RemovedSessions: []string{"s1"},
	})
	if err == nil || !strings.Contains(err.Error(), "poisoned row") {
		t.Fatalf("Commit with a refused row: %v, want the trigger's error", err)
	}
	fs := allFiles(t, ctx, s)
	if len(fs) != 1 || fs[0].Offset != 10 {
		t.Errorf("files after a rolled-back commit: %+v, want /a at offset 10 only", fs)
	}
	recs, _ := s.Records(ctx, tally.SessionFilter{})
	if len(recs) != 1 || recs[0].ID != "s1" {
		t.Errorf("sessions after a rolled-back commit: %+v, want s1 only", recs)
	}
}

// TestStore_SkipsDamagedRows edits the JSON of one file and one session as
// someone with the sqlite3 shell might: the rest still loads, the damage is
// counted with a message naming the row.
func TestStore_SkipsDamagedRows(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	s := openTemp(t, path)
	defer s.Close()
	ctx := context.Background()
	err := s.Commit(ctx, tally.Batch{
		Files:    []*tally.FileState{{Path: "/a", Session: "s1", Offset: 1}, {Path: "/b", Session: "s2", Offset: 2}},
		Sessions: []tally.Record{record("s1", time.Now()), record("s2", time.Now().Add(-time.Minute))},
	})
	if err != nil {
		t.Fatal(err)
	}
	db := rawDB(t, path)
	for _, q := range []string{
		`UPDATE files SET state = '{"path": "/b", "offset": ' WHERE path = '/b'`,
		`UPDATE sessions SET record = '{"id": "s1", "lists": 7}' WHERE id = 's1'`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	marks, err := s.FileMarks(ctx)
	if err != nil || len(marks) != 1 || marks[0].Path != "/a" {
		t.Errorf("FileMarks with /b damaged = %+v, %v; want /a alone and no error", marks, err)
	}
	if _, err := s.File(ctx, "/b"); tally.ErrorCode(err) != tally.CodeNotFound || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("File(damaged /b): %v, want not found saying it is damaged (so it is read again)", err)
	}
	recs, err := s.Records(ctx, tally.SessionFilter{})
	if err != nil || len(recs) != 1 || recs[0].ID != "s2" {
		t.Errorf("Records with s1 damaged = %+v, %v; want s2 alone and no error", recs, err)
	}
	_, err = s.Record(ctx, "s1")
	if tally.ErrorCode(err) != tally.CodeUnavailable || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Record(damaged s1): %v, want unavailable saying it is damaged", err)
	}
	n, diags := s.Skipped()
	// Four reads met damage: FileMarks and File (/b), Sessions and Session (s1).
	if n != 4 || len(diags) != 4 || !strings.Contains(diags[0].Msg, `files row "/b"`) || diags[0].Path != path {
		t.Errorf("Skipped = %d, %+v; want 4 diagnostics, the first naming files row /b in %s", n, diags, path)
	}
	// The next commit of the session repairs the row.
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Record(ctx, "s1"); err != nil {
		t.Errorf("Record(s1) after it was rewritten: %v", err)
	}
}

// TestCommit_WaitsForAnotherWriter holds the write lock from another
// connection (as another tally process would) for a while: a commit
// waits for it instead of failing, and reads go on meanwhile.
func TestCommit_WaitsForAnotherWriter(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	s := openTemp(t, path)
	defer s.Close()
	ctx := context.Background()
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	other := openTemp(t, path)
	defer other.Close()
	conn, err := other.w.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "DELETE FROM sessions"); err != nil {
		t.Fatal(err)
	}
	const hold = 300 * time.Millisecond
	released := make(chan error, 1)
	go func() {
		time.Sleep(hold)
		_, err := conn.ExecContext(ctx, "ROLLBACK")
		released <- err
	}()
	// While the other process holds the lock, reads see the last commit.
	if recs, err := s.Records(ctx, tally.SessionFilter{}); err != nil || len(recs) != 1 {
		t.Errorf("Records while another process writes: %v, %v; want s1", ids(recs), err)
	}
	start := time.Now()
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{record("s2", time.Now())}}); err != nil {
		t.Fatalf("Commit while another process held the lock: %v", err)
	}
	if waited := time.Since(start); waited < hold/2 {
		t.Errorf("Commit returned after %v while the lock was held for %v: it did not wait", waited, hold)
	}
	if err := <-released; err != nil {
		t.Fatal(err)
	}
	recs, err := s.Records(ctx, tally.SessionFilter{})
	if err != nil || len(recs) != 2 {
		t.Errorf("after both writers: %v, %v; want s1 and s2", ids(recs), err)
	}
}

func ids(recs []tally.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func TestClassify(t *testing.T) {
	if code, _ := classify(context.Canceled); code != tally.CodeUnavailable {
		t.Errorf("cancelled: %v", code)
	}
	if code, _ := classify(errors.New("x")); code != tally.CodeInternal {
		t.Errorf("plain error: %v", code)
	}
}

// A store made before push tokens named their machine (schema 7) opens
// with its tokens kept: a push token among them names no machine, so it
// pushes nothing (tally.Token.MayPush) until one per machine replaces it.
func TestOpen_migratesTokensToTheirOrigin(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	openTemp(t, path).Close()
	db := rawDB(t, path)
	for _, q := range []string{
		"DROP TABLE requests", // 009, after
		"ALTER TABLE tokens DROP COLUMN machine", "ALTER TABLE tokens DROP COLUMN user_name", "PRAGMA user_version = 7",
		"INSERT INTO tokens (id, name, scope, hash, created_at) VALUES ('0123456789abcdef', 'old', 'push', x'00', 1)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db.Close()
	s := openTemp(t, path)
	defer s.Close()
	list, err := s.Tokens(context.Background())
	if err != nil || len(list) != 1 || list[0].Name != "old" || list[0].Machine != "" {
		t.Fatalf("tokens after the migration: %+v, %v", list, err)
	}
	if err := list[0].MayPush(&tally.PushBatch{Machine: "ana-laptop"}); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Fatalf("the old push token may push: %v", err)
	}
}

// TestInWords_aReadOnlyStoreIsErrStoreReadOnly: the indexer stops on it,
// rather than fail every round.
func TestInWords_aReadOnlyStoreIsErrStoreReadOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tally.db")
	openTemp(t, path).Close()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, err = db.Exec("CREATE TABLE x (y)")
	if err == nil {
		t.Fatal("a read-only database took a write")
	}
	if got := inWords(err); !errors.Is(got, tally.ErrStoreReadOnly) || !tally.StoreUnusable(got) || strings.Contains(got.Error(), "(8)") {
		t.Errorf("%v: not ErrStoreReadOnly, or with its number", got)
	}
	if errors.Is(inWords(errors.New("other")), tally.ErrStoreReadOnly) {
		t.Error("any error is read-only")
	}
}
