package cli

import (
	"bytes"
	"context"
	"flag"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tallyhq/tally/store"
	"github.com/tallyhq/tally/store/sqlite"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// golden compares got with testdata/name.golden.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// fixedNow is the clock of every test: an hour after the captures were
// made (captured/README.md: the capture machine read 2026-11-22).
var fixedNow = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

// testStore is the real SQLite store in a temporary directory. Commands
// close the store they open; the test's store stays open across commands
// and is closed when the test ends.
type testStore struct{ *sqlite.Store }

func (testStore) Close() error { return nil }

func newStore(t *testing.T) testStore {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return testStore{st}
}

// syncBuffer is a bytes.Buffer a command writes while a test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// testHome is the home of every test's Env: one no machine has (Debian
// keeps /nonexistent as the home that must never exist), so that a
// command reading agents' folders under the home reads nothing a test did
// not put there, whoever runs the tests. A test that needs agents' files
// names its own folders.
const testHome = "/nonexistent/home/dev"

// testEnv is a pipe-like Env (no terminal) over st with a fixed clock.
func testEnv(st store.Store, out, errOut *syncBuffer, env map[string]string) Env {
	return Env{
		Out: out, Err: errOut,
		Getenv:    func(k string) string { return env[k] },
		Now:       func() time.Time { return fixedNow },
		Home:      testHome,
		Dir:       testHome + "/src/tally",
		OpenStore: func(context.Context, string) (store.Store, error) { return st, nil },
		DefaultDB: func(string, string) (string, error) { return "mem", nil },
		Resolver:  testHosts,
	}
}

// hosts is a resolver over a fixed table, so that no test asks the
// network; each lookup of a name takes its next answer (the last one
// repeats), as a DNS name rebound between lookups would answer.
type hosts struct {
	mu      sync.Mutex
	answers map[string][][]netip.Addr
	asked   map[string]int
}

var testHosts = &hosts{answers: map[string][][]netip.Addr{
	"localhost":        {addrs("127.0.0.1", "::1")},
	"here.localhost":   {addrs("127.0.0.1")},
	"evil.localhost":   {addrs("192.0.2.7")},
	"two.localhost":    {addrs("127.0.0.1", "10.1.2.3")},
	"example.com":      {addrs("93.184.215.14")},
	"rebind.localhost": {addrs("127.0.0.1"), addrs("192.0.2.7")},
}, asked: map[string]int{}}

func addrs(s ...string) []netip.Addr {
	out := make([]netip.Addr, len(s))
	for i, a := range s {
		out[i] = netip.MustParseAddr(a)
	}
	return out
}

func (h *hosts) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	as, ok := h.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	n := h.asked[host]
	h.asked[host]++
	return slices.Clone(as[min(n, len(as)-1)]), nil
}
