package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/store/postgres/pgtest"
)

// follower reads Changed on every value Watch sends, and on nothing else:
// no polling, so what it sees came through the notifications and the
// catch-up reads after a lost connection.
type follower struct {
	mu   sync.Mutex
	seen map[string]int
	mark int64
	wake chan struct{}
}

func follow(t *testing.T, s *Store) *follower {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	f := &follower{seen: map[string]int{}, wake: make(chan struct{}, 1)}
	mark, err := s.ChangeMark(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f.mark = mark
	ch := s.Watch(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range ch {
			recs, next, err := s.Changed(ctx, f.mark)
			if err != nil {
				continue // the next value reads again from the same mark
			}
			f.mu.Lock()
			f.mark = next
			for _, r := range recs {
				f.seen[r.ID]++
			}
			f.mu.Unlock()
			select {
			case f.wake <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return f
}

// has waits until the follower saw every id, or gives up after a while.
func (f *follower) has(ids []string, within time.Duration) []string {
	deadline := time.After(within)
	for {
		f.mu.Lock()
		var missing []string
		for _, id := range ids {
			if f.seen[id] == 0 {
				missing = append(missing, id)
			}
		}
		f.mu.Unlock()
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-f.wake:
		case <-deadline:
			return missing
		}
	}
}

func (f *follower) saw(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[id] > 0
}

// admin is a connection to the server's maintenance database, which
// stays open whatever happens to the test's database.
func admin(t *testing.T) *pgx.Conn {
	t.Helper()
	return rawDB(t, pgtest.Shared(t).URL("postgres"))
}

// terminateWatch ends the server sessions of the watch connections on
// database db, as an administrator or a failover would, and returns how
// many it ended.
func terminateWatch(t *testing.T, conn *pgx.Conn, db string) int {
	t.Helper()
	var n int
	err := conn.QueryRow(context.Background(), `SELECT count(*) FROM (
		SELECT pg_terminate_backend(pid) FROM pg_stat_activity
		WHERE datname = $1 AND application_name = 'tally watch') AS ended`, db).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func dbName(t *testing.T, url string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(url)
	if err != nil {
		t.Fatal(err)
	}
	return cfg.Database
}

// waitListening waits until s's watch connection LISTENs.
func waitListening(t *testing.T, s *Store) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for s.w.connects.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the watch connection was never made")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func commitOne(t *testing.T, s *Store, id string) {
	t.Helper()
	if err := s.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{record(id, time.Now())}}); err != nil {
		t.Fatalf("Commit %s: %v", id, err)
	}
}

// TestWatch_AnotherProcessCommits: a commit through another store (another
// replica) reaches a watcher through the notification alone.
func TestWatch_AnotherProcessCommits(t *testing.T) {
	url := pgtest.DB(t)
	a, b := openTemp(t, url), openTemp(t, url)
	defer a.Close()
	defer b.Close()
	f := follow(t, b)
	for i := range 5 {
		id := fmt.Sprintf("from-a-%d", i)
		commitOne(t, a, id)
		if missing := f.has([]string{id}, 10*time.Second); missing != nil {
			t.Fatalf("b's watcher never saw %s committed through a", id)
		}
	}
}

// TestWatch_CatchesUpAfterLostConnection: commits made while the watch
// connection is gone are notified to no one; when the connection is made
// again the watcher reads them. New connections are refused meanwhile, so
// the commits surely fall in the gap.
func TestWatch_CatchesUpAfterLostConnection(t *testing.T) {
	url := pgtest.DB(t)
	a, b := openTemp(t, url), openTemp(t, url)
	defer a.Close()
	defer b.Close()
	f := follow(t, b)
	waitListening(t, b)
	commitOne(t, a, "before")
	if f.has([]string{"before"}, 10*time.Second) != nil {
		t.Fatal("the watcher never saw the first commit")
	}
	db := admin(t)
	ctx := context.Background()
	name := dbName(t, url)
	quoted := pgx.Identifier{name}.Sanitize()
	if _, err := db.Exec(ctx, "ALTER DATABASE "+quoted+" ALLOW_CONNECTIONS false"); err != nil {
		t.Fatal(err)
	}
	if n := terminateWatch(t, db, name); n != 1 {
		t.Fatalf("ended %d watch connections, want 1", n)
	}
	gap := []string{"gap-1", "gap-2", "gap-3"}
	for _, id := range gap {
		commitOne(t, a, id) // a's pool keeps its open connection
	}
	time.Sleep(300 * time.Millisecond)
	if f.saw("gap-1") {
		t.Fatal("the watcher saw a commit made while it had no connection: the test did not cut it off")
	}
	if _, err := db.Exec(ctx, "ALTER DATABASE "+quoted+" ALLOW_CONNECTIONS true"); err != nil {
		t.Fatal(err)
	}
	if missing := f.has(gap, 20*time.Second); missing != nil {
		t.Fatalf("after the watch connection was made again, commits of the gap were never read: %v", missing)
	}
}

// TestWatch_KilledMidStreamLosesNothing: a writer commits steadily while
// the watch connection's server session is killed again and again; the
// watcher ends up having read every commit, each once.
func TestWatch_KilledMidStreamLosesNothing(t *testing.T) {
	const commits = 1000
	url := pgtest.DB(t)
	db, name := admin(t), dbName(t, url)
	a, b := openTemp(t, url), openTemp(t, url)
	defer a.Close()
	defer b.Close()
	f := follow(t, b)
	var want []string
	for i := range commits {
		want = append(want, fmt.Sprintf("s%03d", i))
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i, id := range want {
			if err := a.Commit(context.Background(), tally.Batch{Sessions: []tally.Record{record(id, time.Now())}}); err != nil {
				t.Errorf("Commit %s: %v", id, err)
				return
			}
			if i%5 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	kills := 0
	for running := true; running; {
		select {
		case <-done:
			running = false
		case <-time.After(15 * time.Millisecond):
			kills += terminateWatch(t, db, name)
		}
	}
	if kills == 0 {
		t.Fatal("no watch connection was killed while commits went on: the test proved nothing")
	}
	if missing := f.has(want, 20*time.Second); missing != nil {
		t.Fatalf("%d commits never reached the watcher after %d kills, e.g. %v", len(missing), kills, missing[:min(5, len(missing))])
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, id := range want {
		if f.seen[id] != 1 {
			t.Errorf("%s read %d times, want once", id, f.seen[id])
		}
	}
	t.Logf("%d commits, %d watch connections killed, %d made", commits, kills, b.w.connects.Load())
}

// TestWatch_ClosedStoreClosesWatches: Close ends every watch, and a watch
// whose context ends is closed.
func TestWatch_ClosedStoreClosesWatches(t *testing.T) {
	s := openTemp(t, pgtest.DB(t))
	ctx, cancel := context.WithCancel(context.Background())
	short := s.Watch(ctx)
	long := s.Watch(context.Background())
	cancel()
	drain := func(ch <-chan struct{}) bool {
		timeout := time.After(10 * time.Second)
		for {
			select {
			case _, ok := <-ch:
				if !ok {
					return true
				}
			case <-timeout:
				return false
			}
		}
	}
	if !drain(short) {
		t.Error("a watch whose context ended is still open")
	}
	s.Close()
	if !drain(long) {
		t.Error("a watch is still open after Close")
	}
	if !drain(s.Watch(context.Background())) {
		t.Error("Watch on a closed store gives an open channel")
	}
}
