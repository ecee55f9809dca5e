package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
)

func TestStore_UpdateHook(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "tally.db"))
	defer s.Close()

	t.Run("state round-trips and nil keeps it", func(t *testing.T) {
		put := func(b []byte) {
			if err := s.UpdateHook(ctx, "s1", time.Now(), func([]byte) ([]byte, tally.Signal, error) { return b, tally.SignalNone, nil }); err != nil {
				t.Fatal(err)
			}
		}
		put([]byte(`{"turns":3}`))
		put(nil)
		var got []byte
		_ = s.UpdateHook(ctx, "s1", time.Now(), func(saved []byte) ([]byte, tally.Signal, error) { got = saved; return nil, 0, nil })
		if string(got) != `{"turns":3}` {
			t.Errorf("saved %q", got)
		}
	})

	t.Run("separate writers take turns: no update is lost", func(t *testing.T) {
		s2 := openTemp(t, s.Path()) // another process's connections
		defer s2.Close()
		var wg sync.WaitGroup
		for _, st := range []*Store{s, s2} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for range 20 {
					err := st.UpdateHook(ctx, "count", time.Now(), func(saved []byte) ([]byte, tally.Signal, error) {
						n, _ := strconv.Atoi(string(saved))
						return []byte(strconv.Itoa(n + 1)), tally.SignalNone, nil
					})
					if err != nil {
						t.Error(err)
					}
				}
			}()
		}
		wg.Wait()
		var got []byte
		_ = s.UpdateHook(ctx, "count", time.Now(), func(saved []byte) ([]byte, tally.Signal, error) { got = saved; return nil, 0, nil })
		if string(got) != "40" {
			t.Errorf("count %s, want 40", got)
		}
	})

	t.Run("an error from fn writes nothing", func(t *testing.T) {
		boom := errors.New("boom")
		err := s.UpdateHook(ctx, "s1", time.Now(), func([]byte) ([]byte, tally.Signal, error) { return []byte("x"), 0, boom })
		if !errors.Is(err, boom) {
			t.Errorf("err %v", err)
		}
		_ = s.UpdateHook(ctx, "s1", time.Now(), func(saved []byte) ([]byte, tally.Signal, error) {
			if string(saved) != `{"turns":3}` {
				t.Errorf("saved %q", saved)
			}
			return nil, 0, nil
		})
	})
}

func TestStore_needsInput(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "tally.db"))
	defer s.Close()
	t0 := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	rec := tally.Record{ID: "sess", Agent: claude.Agent, LastActivity: t0, Signal: tally.SignalWorking}
	commit := func(r tally.Record) {
		t.Helper()
		if err := s.Commit(ctx, tally.Batch{Sessions: []tally.Record{r}}); err != nil {
			t.Fatal(err)
		}
	}
	activity := func() tally.Activity {
		t.Helper()
		r, err := s.Record(ctx, "sess")
		if err != nil {
			t.Fatal(err)
		}
		return tally.DeriveActivity(r.Signal, r.LastActivity, t0.Add(3*time.Minute))
	}
	mark := func(sig tally.Signal, at time.Time) {
		t.Helper()
		if err := s.UpdateHook(ctx, "sess", at, func([]byte) ([]byte, tally.Signal, error) { return nil, sig, nil }); err != nil {
			t.Fatal(err)
		}
	}
	commit(rec)
	before, _ := s.ChangeMark(ctx)

	mark(tally.SignalAsking, t0.Add(time.Minute))
	if a := activity(); a != tally.ActivityNeedsInput {
		t.Fatalf("after the notification: %v", a)
	}
	if changed, _, _ := s.Changed(ctx, before); len(changed) != 1 {
		t.Errorf("live surfaces are not told: %d changed records", len(changed))
	}

	t.Run("a record of activity before the prompt keeps waiting", func(t *testing.T) {
		r := rec
		r.LastActivity = t0.Add(30 * time.Second)
		b := tally.Batch{Sessions: []tally.Record{r}}
		if err := s.Commit(ctx, b); err != nil {
			t.Fatal(err)
		}
		if a := activity(); a != tally.ActivityNeedsInput {
			t.Errorf("activity %v", a)
		}
		if got := b.Sessions[0]; got.Signal != tally.SignalAsking || !got.LastActivity.Equal(t0.Add(time.Minute)) {
			t.Errorf("the batch holds %v at %v, want the record as stored: asking since the mark", got.Signal, got.LastActivity)
		}
	})
	t.Run("the next activity ends waiting", func(t *testing.T) {
		r := rec
		r.LastActivity = t0.Add(2 * time.Minute)
		commit(r)
		if a := activity(); a != tally.ActivityWorking {
			t.Errorf("activity %v", a)
		}
		r.LastActivity = t0.Add(90 * time.Second) // the mark is gone for good
		commit(r)
		if a := activity(); a == tally.ActivityNeedsInput {
			t.Errorf("the mark outlived the activity that ended it")
		}
	})
	t.Run("a hook's activity ends waiting with no indexer running", func(t *testing.T) {
		mark(tally.SignalAsking, t0.Add(2*time.Minute))
		if a := activity(); a != tally.ActivityNeedsInput {
			t.Fatalf("activity %v", a)
		}
		mark(tally.SignalWorking, t0.Add(150*time.Second))
		if a := activity(); a != tally.ActivityWorking {
			t.Errorf("activity %v", a)
		}
	})
	t.Run("a mark for a session not indexed yet waits for its record", func(t *testing.T) {
		if err := s.UpdateHook(ctx, "later", t0.Add(time.Minute), func([]byte) ([]byte, tally.Signal, error) {
			return nil, tally.SignalAsking, nil
		}); err != nil {
			t.Fatal(err)
		}
		commit(tally.Record{ID: "later", Agent: claude.Agent, LastActivity: t0, Signal: tally.SignalWorking})
		r, _ := s.Record(ctx, "later")
		if r.Signal != tally.SignalAsking {
			t.Errorf("signal %v", r.Signal)
		}
	})
}

func TestStore_UpdateHook_lockedStoreKeepsTheDeadline(t *testing.T) {
	s := openTemp(t, filepath.Join(t.TempDir(), "tally.db"))
	defer s.Close()
	locker := rawDB(t, s.Path())
	conn, err := locker.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	defer conn.ExecContext(context.Background(), "ROLLBACK") //nolint:errcheck
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = s.UpdateHook(ctx, "s", time.Now(), func([]byte) ([]byte, tally.Signal, error) { return []byte("{}"), 0, nil })
	if err == nil {
		t.Fatal("wrote through another process's write lock")
	}
	if waited := time.Since(start); waited >= BusyTimeout {
		t.Errorf("waited %v for the lock, past the caller's deadline", waited)
	}
	if tally.ErrorCode(err) != tally.CodeUnavailable {
		t.Errorf("err %v", err)
	}
}

func TestStore_SessionFiles(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, filepath.Join(t.TempDir(), "tally.db"))
	defer s.Close()
	b := tally.Batch{Files: []*tally.FileState{
		{Path: "/p/b.jsonl", Session: "s", Agent: claude.Agent, Offset: 7},
		{Path: "/p/a.jsonl", Session: "s", Agent: claude.Agent, Offset: 3},
		{Path: "/p/other.jsonl", Session: "t", Agent: claude.Agent},
	}}
	if err := s.Commit(ctx, b); err != nil {
		t.Fatal(err)
	}
	got, err := s.SessionFiles(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Path != "/p/a.jsonl" || got[0].Offset != 3 || got[1].Path != "/p/b.jsonl" {
		t.Errorf("got %+v", got)
	}
}
