package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/broker"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/plan"
	"github.com/tallyhq/tally/planner"
	"github.com/tallyhq/tally/store/sqlite"
	"github.com/tallyhq/tally/web"
)

// planCapture is a real Claude Code session that planned into docs/por
// and wrote six progress markers in its replies.
const planCapture = "../plan/testdata/claude-code-2.1.330-plan-markers"

// planSetup indexes the capture's session as it stood after its nth
// marker, run in a copy of its project, with the planner applying the
// markers; it returns how to index the rest.
type planSetup struct {
	project, log string
	data         []byte
	ix           *index.Indexer
	plans        *planner.Planner
}

func newPlanSetup(t *testing.T, st *sqlite.Store, upTo int) *planSetup {
	t.Helper()
	s := &planSetup{project: t.TempDir()}
	if err := os.CopyFS(s.project, os.DirFS(filepath.Join(planCapture, "work"))); err != nil {
		t.Fatal(err)
	}
	logs, _ := filepath.Glob(planCapture + "/config/projects/*/*.jsonl")
	data, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	s.data = bytes.ReplaceAll(data, []byte("/tmp/capture-plan/cc/plan-markers/work"), []byte(s.project))
	home := t.TempDir()
	dir := filepath.Join(home, "projects", "-project")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s.log = filepath.Join(dir, filepath.Base(logs[0]))
	s.plans = planner.New(planner.Options{Folder: func(p string) plan.Folder { return plan.Folder{Root: p, Dir: filepath.Join(p, "docs", "por")} }, Store: st, Poll: time.Hour})
	s.ix, err = index.New(context.Background(), index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: home})}, Store: st, Markers: s.plans})
	if err != nil {
		t.Fatal(err)
	}
	s.upTo(t, upTo)
	return s
}

// upTo writes the log up to the reply holding its nth marker, indexes it
// and applies its markers.
func (s *planSetup) upTo(t *testing.T, n int) {
	t.Helper()
	lines := bytes.SplitAfter(s.data, []byte("\n"))
	seen, end := 0, len(lines)
	for i, l := range lines {
		if bytes.Contains(l, []byte(`"type":"assistant"`)) {
			if seen += bytes.Count(l, []byte("progress: T")); seen >= n && n < 6 {
				end = i + 1
				break
			}
		}
	}
	if err := os.WriteFile(s.log, bytes.Join(lines[:end], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ix.Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := s.plans.ApplyPending(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// The board's data: a project's plan comes with the snapshot and from
// /api/plans (X/Y, percent, the panel line, the active task and step),
// and a marker the agent writes later reaches an open stream as
// plan_updated.
func TestPlans_onTheBoard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s := newPlanSetup(t, st, 2) // T001 start, T001.S1 done
	srv := web.New(web.Options{Indexer: broker.New[index.Change](), Store: st, Plans: s.plans,
		Now: func() time.Time { return time.Date(2026, 11, 23, 17, 40, 0, 0, time.UTC) }})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx) }()
	defer func() { cancel(); <-done }() // streams end before the server closes
	addr := strings.TrimPrefix(hs.URL, "http://")

	resp, err := hs.Client().Get(hs.URL + "/api/plans")
	if err != nil {
		t.Fatal(err)
	}
	var list struct{ Plans []planner.View }
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if len(list.Plans) != 1 {
		t.Fatalf("/api/plans: %+v", list)
	}
	v := list.Plans[0]
	if v.Project != s.project || v.Done != 0 || v.Total != 2 || v.Line != "0/2 → T001 [S2]" ||
		v.Active == nil || v.Active.ID != "T001" || v.Active.Done != 1 || v.Active.StepID != "S2" || v.Active.StepName != "Add a unit test" {
		t.Fatalf("the plan: %+v %+v", v, v.Active)
	}

	c := dialSSE(t, addr)
	snap := c.mustNext(t)
	var d struct{ Plans []planner.View }
	if err := json.Unmarshal([]byte(snap.Data), &d); snap.Event != "snapshot" || err != nil || len(d.Plans) != 1 || d.Plans[0].Line != v.Line {
		t.Fatalf("snapshot %s: %s", snap.Event, snap.Data)
	}

	s.upTo(t, 6)
	for {
		ev := c.mustNext(t)
		if ev.Event != "plan_updated" {
			continue
		}
		var u planner.View
		if err := json.Unmarshal([]byte(ev.Data), &u); err != nil {
			t.Fatal(err)
		}
		if u.Project != s.project {
			t.Fatalf("plan_updated for %s", u.Project)
		}
		if u.Line == "✓ 2/2 Complete" && u.Percent == 100 && u.Active == nil {
			return
		}
	}
}

// A pushed session names a folder of the machine it came from: the
// server never reads a plan from its own disk for it, even when a folder
// of that name holds one here.
func TestPlans_aPushedSessionNeverPointsAtTheServersDisk(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "tally.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	local := t.TempDir() // a folder of the server's, holding a plan
	if err := os.CopyFS(local, os.DirFS(filepath.Join(planCapture, "work"))); err != nil {
		t.Fatal(err)
	}
	plans := planner.New(planner.Options{Folder: func(p string) plan.Folder { return plan.Folder{Root: p, Dir: filepath.Join(p, "docs", "por")} }, Store: st, Poll: time.Hour})
	now := time.Date(2026, 11, 23, 17, 40, 0, 0, time.UTC)
	if _, err := st.Ingest(ctx, tally.PushBatch{Machine: "ana-laptop", User: "ana", Stream: "s", To: 1,
		Sessions: []tally.Record{{ID: "pushed", Agent: claude.Agent, Project: local, LastActivity: now}}}); err != nil {
		t.Fatal(err)
	}
	srv := web.New(web.Options{Indexer: broker.New[index.Change](), Store: st, Plans: plans, Now: func() time.Time { return now }})
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	resp, err := http.Get(hs.URL + "/api/plans")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct{ Plans []planner.View }
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %v", resp.StatusCode, err)
	}
	if len(got.Plans) != 0 {
		t.Fatalf("the server read its own folder's plan for a pushed session: %+v", got.Plans)
	}
}
