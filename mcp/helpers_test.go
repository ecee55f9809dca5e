package mcp

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tallyhq/tally/store/postgres"
	"github.com/tallyhq/tally/store/postgres/pgtest"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/tasks"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// tallyBinary builds cmd/tally once per test run: the stdio tests spawn
// the real binary, as an agent would.
func tallyBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tally-mcp-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "tally")
		goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
		if _, err := os.Stat(goBin); err != nil {
			goBin = "go"
		}
		out, err := exec.Command(goBin, "build", "-o", binPath, "../cmd/tally").CombinedOutput()
		if err != nil {
			buildErr = &buildFailure{out: string(out), err: err}
		}
	})
	if buildErr != nil {
		t.Fatalf("building tally: %v", buildErr)
	}
	return binPath
}

// homeBeside is the home of a tally the tests start on the store db: a
// folder beside it, so that nothing of the user's is read or written.
func homeBeside(db string) string { return filepath.Join(filepath.Dir(db), "home") }

type buildFailure struct {
	out string
	err error
}

func (b *buildFailure) Error() string { return b.err.Error() + "\n" + b.out }

func TestMain(m *testing.M) {
	code := pgtest.Main(m)
	if binPath != "" {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

func openStore(t testing.TB, path string) *sqlite.Store {
	t.Helper()
	st, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// connect starts a server on st over in-memory transports and returns a
// Go SDK client session.
func connect(t testing.TB, o Options) *sdk.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := sdk.NewInMemoryTransports()
	ss, err := NewServer(o).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "go-test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

// answer is a tool result as a test reads it.
type answer struct {
	IsError bool
	Text    string
	Out     map[string]any
}

func call(t testing.TB, cs *sdk.ClientSession, name string, args any) answer {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error %v", name, err)
	}
	return toAnswer(t, res)
}

func toAnswer(t testing.TB, res *sdk.CallToolResult) answer {
	a := answer{IsError: res.IsError}
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			a.Text += tc.Text + "\n"
		}
	}
	if res.StructuredContent != nil {
		js, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(js, &a.Out); err != nil {
			t.Fatal(err)
		}
	}
	return a
}

func fixedClock() func() time.Time {
	var mu sync.Mutex
	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
}

var (
	_ Store = (*sqlite.Store)(nil)
	_ Store = (*postgres.Store)(nil)
)

// liveTasks reads a list straight from the store.
func liveTasks(t testing.TB, st Store, name string) tasks.List {
	t.Helper()
	l, err := st.TaskList(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}
