package postgres

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }

// TestStore runs every conformance suite the embedded store runs.
func TestStore(t *testing.T) {
	fresh := func(t *testing.T) store.Store { return openTemp(t, pgtest.DB(t)) }
	storetest.Run(t, fresh)
	storetest.RunTasks(t, fresh)
	storetest.RunMarkers(t, fresh)
	shared := func(t *testing.T) storetest.Opener {
		url := pgtest.DB(t)
		return func(t *testing.T) store.Store { return openTemp(t, url) }
	}
	storetest.RunShared(t, shared)
	storetest.RunSharedMarkers(t, shared)
	storetest.RunTeam(t, fresh)
	storetest.RunTeamShared(t, shared)
}

func openTemp(t testing.TB, url string) *Store {
	t.Helper()
	s, err := Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open(%s): %v", url, err)
	}
	return s
}

// rawDB connects behind the store's back, as psql or another program would.
func rawDB(t testing.TB, url string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

func record(id string, last time.Time) tally.Record {
	return tally.Record{ID: id, Agent: claude.Agent, Project: "/p", LastActivity: last,
		Lists: map[string][]tally.Item{"": {{Title: "step", Status: tally.StatusInProgress}}}}
}

func ids(recs []tally.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.ID)
	}
	return out
}

func exec(t testing.TB, url, sql string, args ...any) {
	t.Helper()
	if _, err := rawDB(t, url).Exec(context.Background(), sql, args...); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

func TestOpen_ReopenKeepsData(t *testing.T) {
	url := pgtest.DB(t)
	ctx := context.Background()
	s := openTemp(t, url)
	st := &tally.FileState{Path: "/logs/a.jsonl", Agent: codex.Agent, Session: "s1", Offset: 4242, Decoder: []byte{9, 0, 9}}
	if err := s.Commit(ctx, tally.Batch{Files: []*tally.FileState{st}, Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openTemp(t, url)
	defer s.Close()
	got, err := s.File(ctx, "/logs/a.jsonl")
	if err != nil || got.Offset != 4242 || string(got.Decoder) != "\x09\x00\x09" {
		t.Fatalf("after reopen the file is %+v, %v; want offset 4242 and the decoder state saved before", got, err)
	}
	if _, err := s.Record(ctx, "s1"); err != nil {
		t.Fatalf("after reopen Record(s1): %v", err)
	}
}

func TestOpen_RefusesNewerSchema(t *testing.T) {
	url := pgtest.DB(t)
	openTemp(t, url).Close()
	exec(t, url, "INSERT INTO tally_migrations (version, name) VALUES (99, '099_future.sql')")
	_, err := Open(context.Background(), url)
	if tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Fatalf("Open of a schema-99 database: %v, want unavailable", err)
	}
	for _, want := range []string{"99", "upgrade tally"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}

// TestOpen_ReplicasStartingTogetherMigrateOnce: replicas that start at once
// on a new database all open it, and the schema is applied once.
func TestOpen_ReplicasStartingTogetherMigrateOnce(t *testing.T) {
	url := pgtest.DB(t)
	var wg sync.WaitGroup
	errs := make(chan error, 6)
	for range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(context.Background(), url)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("Open beside other replicas: %v", err)
		}
	}
	var n int
	if err := rawDB(t, url).QueryRow(context.Background(), "SELECT count(*) FROM tally_migrations").Scan(&n); err != nil || n != SchemaVersion() {
		t.Errorf("tally_migrations holds %d rows (%v), want %d", n, err, SchemaVersion())
	}
}

func TestOpen_Unreachable(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, url string
		code      tally.Code
		say       []string
		hide      string
	}{
		{"nothing listens", "postgres://ana:s3cret@127.0.0.1:1/tally?connect_timeout=2&password=s3cret2", tally.CodeUnavailable,
			[]string{"127.0.0.1:1"}, "s3cret"},
		{"not a URL pgx reads, with credentials", "postgres://ana:s3cret@host:notaport/db?password=s3cret2", tally.CodeInvalid,
			[]string{"not a usable PostgreSQL URL"}, "s3cret"},
		{"no such database", pgtest.Shared(t).URL("no_such_db"), tally.CodeUnavailable,
			[]string{"no_such_db", "create the database"}, ""},
		{"not a URL pgx reads", "postgres://host:notaport/db", tally.CodeInvalid, []string{"not a usable PostgreSQL URL"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(ctx, tc.url)
			if tally.ErrorCode(err) != tc.code {
				t.Fatalf("Open(%s): %v (code %v), want %v", tc.url, err, tally.ErrorCode(err), tc.code)
			}
			for _, want := range tc.say {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			if tc.hide != "" && strings.Contains(err.Error(), tc.hide) {
				t.Errorf("error %q shows the password", err)
			}
		})
	}
}

// TestCommit_RollsBackInsideTransaction makes PostgreSQL itself fail the
// last statement of a batch (a trigger refuses one session), after the
// batch's removals and files were written in the transaction: none of it
// may stay, and no change mark is used up.
func TestCommit_RollsBackInsideTransaction(t *testing.T) {
	url := pgtest.DB(t)
	s := openTemp(t, url)
	defer s.Close()
	ctx := context.Background()
	old := &tally.FileState{Path: "/a", Session: "s1", Offset: 10}
	if err := s.Commit(ctx, tally.Batch{Files: []*tally.FileState{old}, Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	mark, _ := s.ChangeMark(ctx)
	exec(t, url, `CREATE FUNCTION poison() RETURNS trigger LANGUAGE plpgsql AS $$
		BEGIN IF NEW.id = 'poison' THEN RAISE EXCEPTION 'poisoned row'; END IF; RETURN NEW; END $$;
		CREATE TRIGGER poison BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION poison()`)
	err := s.Commit(ctx, tally.Batch{
		Files:           []*tally.FileState{{Path: "/a", Session: "s1", Offset: 99}, {Path: "/b", Session: "s2", Offset: 5}},
		Sessions:        []tally.Record{record("s2", time.Now()), record("poison", time.Now())},
		RemovedSessions: []string{"s1"},
	})
	if err == nil || !strings.Contains(err.Error(), "poisoned row") {
		t.Fatalf("Commit with a refused row: %v, want the trigger's error", err)
	}
	marks, _ := s.FileMarks(ctx)
	if len(marks) != 1 || marks[0].Offset != 10 {
		t.Errorf("files after a rolled-back commit: %+v, want /a at offset 10 only", marks)
	}
	recs, _ := s.Records(ctx, tally.SessionFilter{})
	if len(recs) != 1 || recs[0].ID != "s1" {
		t.Errorf("sessions after a rolled-back commit: %v, want s1 only", ids(recs))
	}
	if now, _ := s.ChangeMark(ctx); now != mark {
		t.Errorf("ChangeMark %d after a rolled-back commit, was %d", now, mark)
	}
}

// TestCommit_TextPostgreSQLCannotHold: a title or project holding NUL or
// bytes that are not UTF-8 (agents' logs are not to be trusted) is stored,
// its record intact; a key that PostgreSQL text cannot hold fails the
// batch as invalid, and nothing of it is written.
func TestCommit_TextPostgreSQLCannotHold(t *testing.T) {
	s := openTemp(t, pgtest.DB(t))
	defer s.Close()
	ctx := context.Background()
	odd := record("odd-text", time.Now())
	odd.Title, odd.Project = "nul\x00in the title", "/p/\xff\xfe"
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{odd}}); err != nil {
		t.Fatalf("Commit of a record with odd text: %v", err)
	}
	got, err := s.Record(ctx, "odd-text")
	if err != nil || got.Title != odd.Title {
		t.Errorf("Record(odd-text) = %q, %v; want the title with its NUL", got.Title, err)
	}
	if recs, _ := s.Records(ctx, tally.SessionFilter{Project: "/p/"}); len(recs) != 1 {
		t.Errorf("the project filter does not find the record with odd bytes: %v", ids(recs))
	}
	for _, b := range []tally.Batch{
		{Sessions: []tally.Record{record("good", time.Now()), record("bad\x00id", time.Now())}},
		{Sessions: []tally.Record{record("good", time.Now())}, Files: []*tally.FileState{{Path: "/bad/\xff", Session: "good"}}},
	} {
		if err := s.Commit(ctx, b); tally.ErrorCode(err) != tally.CodeInvalid {
			t.Errorf("Commit with an unstorable key: %v, want invalid", err)
		}
	}
	if _, err := s.Record(ctx, "good"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("a refused batch left a record: %v", err)
	}
	if err := s.Commit(ctx, tally.Batch{RemovedSessions: []string{"never\x00stored"}, RemovedFiles: []string{"/\xff"}}); err != nil {
		t.Errorf("removing keys that cannot be stored (so are not there): %v", err)
	}
	if _, err := s.Record(ctx, "bad\x00id"); tally.ErrorCode(err) != tally.CodeNotFound {
		t.Errorf("Record of an unstorable id: %v, want not found", err)
	}
}

// TestStore_SkipsDamagedRows edits the JSON of one file and one session as
// someone with psql might: the rest still loads, the damage is counted
// with a message naming the row.
func TestStore_SkipsDamagedRows(t *testing.T) {
	url := pgtest.DB(t)
	s := openTemp(t, url)
	defer s.Close()
	ctx := context.Background()
	err := s.Commit(ctx, tally.Batch{
		Files:    []*tally.FileState{{Path: "/a", Session: "s1", Offset: 1}, {Path: "/b", Session: "s2", Offset: 2}},
		Sessions: []tally.Record{record("s1", time.Now()), record("s2", time.Now().Add(-time.Minute))},
	})
	if err != nil {
		t.Fatal(err)
	}
	exec(t, url, `UPDATE files SET state = '{"path": "/b", "head": "minus one"}' WHERE path = '/b'`)
	exec(t, url, `UPDATE sessions SET record = '{"id": "s1", "lists": 7}' WHERE id = 's1'`)
	marks, err := s.FileMarks(ctx)
	if err != nil || len(marks) != 1 || marks[0].Path != "/a" {
		t.Errorf("FileMarks with /b damaged = %+v, %v; want /a alone and no error", marks, err)
	}
	recs, err := s.Records(ctx, tally.SessionFilter{})
	if err != nil || len(recs) != 1 || recs[0].ID != "s2" {
		t.Errorf("Records with s1 damaged = %v, %v; want s2 alone and no error", ids(recs), err)
	}
	if _, err := s.Record(ctx, "s1"); tally.ErrorCode(err) != tally.CodeUnavailable || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("Record(damaged s1): %v, want unavailable saying it is damaged", err)
	}
	n, diags := s.Skipped()
	if n != 3 || len(diags) != 3 || !strings.Contains(diags[0].Msg, `files row "/b"`) {
		t.Errorf("Skipped = %d, %+v; want 3 diagnostics, the first naming files row /b", n, diags)
	}
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Record(ctx, "s1"); err != nil {
		t.Errorf("Record(s1) after it was rewritten: %v", err)
	}
}

func TestPrefixEnd(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"abc", "abd", true},
		{"ab\u007f", "ab\u0080", true},
		{"a\uD7FF", "a\uE000", true},
		{"a\U0010FFFF", "b", true},
		{"日本", "日札", true},
		{"\U0010FFFF\U0010FFFF", "", false},
	} {
		got, ok := prefixEnd(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("prefixEnd(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
		if ok && !utf8.ValidString(got) {
			t.Errorf("prefixEnd(%q) = %q is not valid UTF-8", tc.in, got)
		}
	}
}

// TestRecord_PrefixBeyondASCII: prefixes ending in characters of several
// bytes find their sessions, and only theirs.
func TestRecord_PrefixBeyondASCII(t *testing.T) {
	s := openTemp(t, pgtest.DB(t))
	defer s.Close()
	ctx := context.Background()
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{
		record("日本語-1", time.Now()), record("日本人-2", time.Now()), record("日本語x", time.Now()),
	}}); err != nil {
		t.Fatal(err)
	}
	if got, err := s.Record(ctx, "日本人"); err != nil || got.ID != "日本人-2" {
		t.Errorf("Record(日本人) = %s, %v", got.ID, err)
	}
	if _, err := s.Record(ctx, "日本語"); tally.ErrorCode(err) != tally.CodeConflict {
		t.Errorf("Record(日本語) = %v, want ambiguous", err)
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code tally.Code
	}{
		{context.Canceled, tally.CodeUnavailable},
		{&pgconn.PgError{Code: "40P01"}, tally.CodeUnavailable},
		{&pgconn.PgError{Code: "57P01"}, tally.CodeUnavailable},
		{&pgconn.PgError{Code: "28P01"}, tally.CodeUnavailable},
		{&pgconn.PgError{Code: "22021"}, tally.CodeInvalid},
		{&pgconn.PgError{Code: "42P01"}, tally.CodeInternal},
		{errors.New("x"), tally.CodeInternal},
	} {
		if code, _ := classify(tc.err); code != tc.code {
			t.Errorf("classify(%v) = %v, want %v", tc.err, code, tc.code)
		}
	}
}

// TestOpen_ReadOnlyRole: a role that may read the tables but create
// nothing (a dashboard's or an auditor's) opens a store whose schema is
// up to date and reads it; a write fails saying a privilege is missing.
func TestOpen_ReadOnlyRole(t *testing.T) {
	url := pgtest.DB(t)
	ctx := context.Background()
	s := openTemp(t, url)
	if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{record("s1", time.Now())}}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	role := "reader_" + dbName(t, url)
	exec(t, url, "CREATE ROLE "+role+" LOGIN")
	t.Cleanup(func() {
		conn := admin(t)
		conn.Exec(ctx, "DROP OWNED BY "+role)
		conn.Exec(ctx, "DROP ROLE "+role)
	})
	exec(t, url, "REVOKE CREATE ON SCHEMA public FROM PUBLIC; GRANT SELECT ON ALL TABLES IN SCHEMA public TO "+role)
	ro, err := Open(ctx, strings.Replace(url, pgtest.Superuser+"@", role+"@", 1))
	if err != nil {
		t.Fatalf("Open as a read-only role: %v", err)
	}
	defer ro.Close()
	if recs, err := ro.Records(ctx, tally.SessionFilter{}); err != nil || len(recs) != 1 {
		t.Errorf("Records as a read-only role: %v, %v", ids(recs), err)
	}
	err = ro.Commit(ctx, tally.Batch{Sessions: []tally.Record{record("s2", time.Now())}})
	if tally.ErrorCode(err) != tally.CodeUnavailable || !strings.Contains(err.Error(), "privilege") {
		t.Errorf("Commit as a read-only role: %v, want unavailable naming the privilege", err)
	}
}

// FuzzPrefixEnd: for any valid UTF-8 prefix, the end is valid UTF-8 (or
// PostgreSQL refuses the parameter) and the range [prefix, end) holds
// exactly the strings that start with prefix, in byte order.
func FuzzPrefixEnd(f *testing.F) {
	for _, s := range []string{"abc", "0195a1b2", "日本", "a\U0010FFFF", "\uD7FF", "\x7f"} {
		f.Add(s, "x")
	}
	f.Fuzz(func(t *testing.T, prefix, tail string) {
		if !utf8.ValidString(prefix) || !utf8.ValidString(tail) || prefix == "" {
			return
		}
		end, ok := prefixEnd(prefix)
		if !ok {
			if strings.Trim(prefix, "\U0010FFFF") != "" {
				t.Fatalf("prefixEnd(%q) found no end", prefix)
			}
			return
		}
		if !utf8.ValidString(end) {
			t.Fatalf("prefixEnd(%q) = %q, not valid UTF-8", prefix, end)
		}
		if s := prefix + tail; !(s >= prefix && s < end) {
			t.Fatalf("%q starts with %q but is outside [%q, %q)", s, prefix, prefix, end)
		}
		if tail != "" && !strings.HasPrefix(tail, prefix) {
			if in := tail >= prefix && tail < end; in {
				t.Fatalf("%q does not start with %q but is inside [%q, %q)", tail, prefix, prefix, end)
			}
		}
	})
}

// A store made before push tokens named their machine (schema 3) opens
// with its tokens kept: a push token among them names no machine, so it
// pushes nothing (tally.Token.MayPush) until one per machine replaces it.
func TestOpen_migratesTokensToTheirOrigin(t *testing.T) {
	url := pgtest.DB(t)
	openTemp(t, url).Close()
	exec(t, url, "ALTER TABLE tokens DROP COLUMN machine, DROP COLUMN user_name")
	exec(t, url, "DROP TABLE requests") // 005, after
	exec(t, url, "DELETE FROM tally_migrations WHERE version >= 4")
	exec(t, url, "INSERT INTO tokens (id, name, scope, hash, created_at) VALUES ('0123456789abcdef', 'old', 'push', '\\x00', 1)")
	s := openTemp(t, url)
	defer s.Close()
	list, err := s.Tokens(context.Background())
	if err != nil || len(list) != 1 || list[0].Name != "old" || list[0].Machine != "" {
		t.Fatalf("tokens after the migration: %+v, %v", list, err)
	}
	if err := list[0].MayPush(&tally.PushBatch{Machine: "ana-laptop"}); tally.ErrorCode(err) != tally.CodeInvalid {
		t.Fatalf("the old push token may push: %v", err)
	}
}
