package index_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/tasks"
)

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	removeBigCorpus()
	os.Exit(code)
}

// TestRun_WatchedStoreWakesRun: a task list that another process (tally
// mcp on another machine, another replica) commits to a shared PostgreSQL
// database reaches the indexer's subscribers through the store's watch,
// though Run is told to poll only once an hour.
func TestRun_WatchedStoreWakesRun(t *testing.T) {
	url := pgtest.DB(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	other, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	home := t.TempDir()
	if err := os.MkdirAll(filepath.Join(home, "projects"), 0o755); err != nil {
		t.Fatal(err)
	}
	ix, err := index.New(ctx, index.Options{
		Adapters:  []tally.Adapter{claude.New(claude.Options{ConfigDir: home})},
		Store:     st,
		PollStore: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	sub := ix.Subscribe(1000)
	defer sub.Close()
	done := make(chan error, 1)
	go func() { done <- ix.Run(ctx) }()
	defer func() { cancel(); <-done }()
	select {
	case <-ix.Ready():
	case <-time.After(15 * time.Second):
		t.Fatal("indexer not ready")
	}
	for i, subject := range []string{"plan the schema", "write the queries"} {
		_, err := other.UpdateTaskList(ctx, "team", func(l *tasks.List) error {
			_, err := l.Create(tasks.CreateArgs{Subject: subject}, time.Now())
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.After(15 * time.Second)
		for seen := false; !seen; {
			select {
			case c := <-sub.C:
				seen = c.ID == "tally:team" && len(c.Record.Lists[""]) == i+1
			case <-deadline:
				t.Fatalf("the list another process committed (%d tasks) never reached the indexer's subscribers", i+1)
			}
		}
	}
}
