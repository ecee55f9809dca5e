package planview

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally/marker"
	"github.com/tallyhq/tally/plan"
)

// t0 is the clock of the folders newFolder makes.
var t0 = time.Date(2024, 1, 16, 10, 0, 0, 0, time.UTC)

// newFolder makes a plan folder with tasks given as "T001-login:3" (folder
// and step count) and returns it with a clock at t0.
func newFolder(t testing.TB, tasks ...string) plan.Folder {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "docs", "por")
	for _, spec := range tasks {
		folder, n, _ := strings.Cut(spec, ":")
		steps := 3
		fmt.Sscan(n, &steps)
		var b strings.Builder
		id, name := folder[:4], strings.TrimPrefix(folder[4:], "-")
		fmt.Fprintf(&b, "id: %s\nname: %s\ngoal: %s works\nstatus: planned\nsteps:\n", id, name, name)
		for i := 1; i <= steps; i++ {
			fmt.Fprintf(&b, "  - id: S%d\n    name: Step %d of %s\n    done: Step %d checked\n    status: pending\n", i, i, name, i)
		}
		writeTaskFile(t, dir, folder, b.String())
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return plan.Folder{Dir: dir, Now: func() time.Time { return t0 }}
}

func writeTaskFile(t testing.TB, dir, folder, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, folder), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, folder, plan.TaskFile), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// markers reads markers from an agent's message, keyed as the line at
// offset of session, written at.
func markers(session string, offset int64, at time.Time, text string) []plan.Marker {
	var out []plan.Marker
	for i, m := range marker.Scan([]byte(text)) {
		out = append(out, plan.Marker{Marker: m, Key: plan.Key(session, offset, i), At: at, By: session})
	}
	return out
}

func apply(t testing.TB, f plan.Folder, ms []plan.Marker) []plan.Outcome {
	t.Helper()
	outs, err := f.Apply(ms)
	if err != nil {
		t.Fatal(err)
	}
	return outs
}

func load(t testing.TB, f plan.Folder) *plan.Plan {
	t.Helper()
	p, err := f.Load()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// entries are the plan's ledger entries, read again from its folder.
func entries(p *plan.Plan) []plan.Entry {
	es, _, _ := (plan.Folder{Dir: p.Dir}).Entries()
	return es
}
