package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
)

func testFileRoundTrip(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	full := fullFile("/logs/a.jsonl", "sess-a", 5)
	// A file that has produced nothing yet: zero times, no lists.
	bare := &tally.FileState{Path: "/logs/dir with space/b?.jsonl", Agent: codex.Agent, Session: "sess-b", Offset: 0}
	// One session of a database: its mark must name the database, which
	// is the file an indexer watches after a restart.
	part := &tally.FileState{Path: tally.PartPath("/data/state.db", "sess-c"), Database: "/data/state.db",
		Agent: hermes.Agent, Session: "sess-c", Identity: "dev=1,ino=2@4096:17", LastAt: at(2)}
	commit(t, s, tally.Batch{Files: []*tally.FileState{full, bare, part}})

	got := files(t, s)
	equal(t, "paths", sortedKeys(got), []string{part.Path, full.Path, bare.Path})
	equal(t, "full state", got[full.Path], fullFile("/logs/a.jsonl", "sess-a", 5))
	equal(t, "bare state", got[bare.Path], bare)
	equal(t, "database part", got[part.Path], part)
	if g := got[full.Path]; g != nil && g.Offset != 1005 {
		t.Errorf("offset %d, want 1005: a restart would resume at the wrong byte", g.Offset)
	}
}

func testRecordRoundTrip(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	rec := fullRecord("0195a1b2-c3d4-7e8f-9a0b-123456789abc", gemini.Agent, "/home/ana/src/tally", at(3))
	// Times in another zone come back as the same instant.
	zoned := fullRecord("zoned-session", codex.Agent, "/p", at(1).In(time.FixedZone("CEST", 2*3600)))
	commit(t, s, tally.Batch{Sessions: []tally.Record{rec, zoned}})

	got, err := s.Record(context.Background(), rec.ID)
	if err != nil {
		t.Fatalf("Record(%s): %v", rec.ID, err)
	}
	equal(t, "Record", got, fullRecord(rec.ID, gemini.Agent, "/home/ana/src/tally", at(3)))
	list := sessions(t, s, tally.SessionFilter{})
	if len(list) != 2 {
		t.Fatalf("Records returned %v, want 2 records", ids(list))
	}
	equal(t, "Records[0]", list[0], got)
	if !list[1].LastActivity.Equal(at(1)) || !list[1].StartedAt.Equal(at(1).Add(-time.Hour)) {
		t.Errorf("zoned record times %v / %v, want the instants %v / %v",
			list[1].StartedAt, list[1].LastActivity, at(1).Add(-time.Hour), at(1))
	}
}

func testEmpty(t *testing.T, open CoreOpener) {
	s := openStore(t, open)
	ctx := context.Background()
	commit(t, s, tally.Batch{})
	if got := files(t, s); len(got) != 0 {
		t.Errorf("Files of an empty store: %v", sortedKeys(got))
	}
	if got := sessions(t, s, tally.SessionFilter{}); len(got) != 0 {
		t.Errorf("Records of an empty store: %v", ids(got))
	}
	_, err := s.Record(ctx, "abcdef")
	if code := tally.ErrorCode(err); code != tally.CodeNotFound {
		t.Errorf("Record on an empty store: %v (code %v), want not_found", err, code)
	}
	// Removing what is not there is not an error: the indexer may remove
	// a file it never managed to commit.
	commit(t, s, tally.Batch{RemovedFiles: []string{"/nope"}, RemovedSessions: []string{"nope"}})
}
