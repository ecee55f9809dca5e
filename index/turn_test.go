package index_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// TestIndexer_aReplyWrittenBeforeItsToolCallsIsNoTurnEnd: Gemini CLI
// writes a reply ("The README task is blocked until the test exists.")
// and, once its tool call is known, writes the same message again with
// it (the captured chat record's lines 55 and 57, one id). Between the two
// the session is still working, not waiting for its person: a turn end
// the agent did not say was over counts only once TurnGrace has passed
// with nothing new.
func TestIndexer_aReplyWrittenBeforeItsToolCallsIsNoTurnEnd(t *testing.T) {
	const fixture = "../testdata/fixtures/captured/gemini-cli-0.61.0/task-tracker/gemini_home"
	const sid = "1fb695ac-76cc-4120-8ded-da2b5d3b24a5"
	chat := filepath.Join("tmp/work/chats", "session-2026-11-22T14-06-1fb695ac.jsonl")
	data, err := os.ReadFile(filepath.Join(fixture, chat))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	first, again := lines[54], lines[56] // lines 55 and 57
	id := []byte(`"id":"fd5e757e-12ae-4beb-bb7f-118872f54527"`)
	if !bytes.Contains(first, id) || !bytes.Contains(again, id) || bytes.Contains(first, []byte(`"toolCalls"`)) || !bytes.Contains(again, []byte(`"toolCalls"`)) {
		t.Fatal("the capture's lines 55 and 57 are not one reply written without, then with, its tool call")
	}
	written := time.Date(2026, 11, 22, 14, 6, 53, 937e6, time.UTC) // line 56's lastUpdated

	home := t.TempDir()
	if err := os.CopyFS(home, os.DirFS(fixture)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(home, chat)
	if err := os.WriteFile(path, bytes.Join(lines[:56], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	now := written.Add(2 * time.Second)
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{gemini.New(gemini.Options{Home: home})},
		Store: st, Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	session := func() tally.Session {
		t.Helper()
		if _, err := ix.Scan(ctx); err != nil {
			t.Fatal(err)
		}
		rec, err := st.Record(ctx, sid)
		if err != nil {
			t.Fatal(err)
		}
		return rec.Session(now)
	}
	if s := session(); s.Activity != tally.ActivityWorking || s.Flags.Has(tally.FlagNeedsInput) {
		t.Errorf("2 s after a reply written without its tool call: %v, flags %q; want working", s.Activity, s.Flags)
	}
	// Nothing new for longer than the grace: the turn is over after all.
	now = written.Add(tally.TurnGrace + time.Second)
	if s := session(); s.Activity != tally.ActivityNeedsInput {
		t.Errorf("%v after the reply with nothing new: %v, want needs input", tally.TurnGrace+time.Second, s.Activity)
	}
	// The reply written again with its call: work goes on.
	now = written.Add(2 * time.Second)
	appendTo(t, path, bytes.Join(lines[56:58], nil))
	if s := session(); s.Activity != tally.ActivityWorking {
		t.Errorf("after the reply's tool call: %v, want working", s.Activity)
	}
}

// TestIndexer_Run_aTentativeTurnEndIsPublishedWhenItCounts: a reply ending
// on a question whose line does not say the turn is over (stop_reason
// null, as Claude Code 1.0.x wrote its last text) is published at once as
// work, and again, with nothing new in the log, at the moment it counts
// as a question for the person: every reader of the change stream (the
// board, notifications) learns it then.
func TestIndexer_Run_aTentativeTurnEndIsPublishedWhenItCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("waits TurnGrace")
	}
	l := startLive(t, time.Hour)
	dir := filepath.Join(l.home, "projects", "-tmp-ask")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	at := time.Now().Truncate(time.Millisecond) // as the line's own timestamp says it: what the rule counts from
	appendTo(t, filepath.Join(dir, "ask.jsonl"), fmt.Appendf(nil,
		`{"parentUuid":"p","isSidechain":false,"message":{"id":"m1","type":"message","role":"assistant","content":[{"type":"text","text":"Shall I also update the README?"}],"stop_reason":null},"type":"assistant","uuid":"u1","timestamp":"%s"}`+"\n", stamp(at)))
	rec := l.waitFor("ask", "the reply", func(r tally.Record) bool { return !r.LastActivity.IsZero() })
	if s := rec.Session(time.Now()); time.Since(at) < tally.TurnGrace && s.Activity != tally.ActivityWorking {
		t.Errorf("just after the reply: %v, want working", s.Activity)
	}
	rec = l.waitFor("ask", "a change saying it asks", func(r tally.Record) bool {
		return r.FlagsAt(time.Now()).Has(tally.FlagNeedsInput)
	})
	if waited := time.Since(at); waited < tally.TurnGrace {
		t.Errorf("needs input %v after the reply, want %v", waited, tally.TurnGrace)
	}
}
