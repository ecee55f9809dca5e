package tui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/crush"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/adapter/opencode"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// fixedNow is the clock of every test.
var fixedNow = time.Date(2026, 11, 22, 15, 0, 0, 0, time.UTC)

const home = "/home/dev"

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
		t.Errorf("screen differs from %s:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// look is what a person sees of m at w×h: the frame without escape
// sequences, checked to fill the terminal exactly and never wrap.
func look(t *testing.T, m *Model) string {
	t.Helper()
	raw := m.View().Content
	plain := ansi.Strip(raw)
	lines := strings.Split(plain, "\n")
	if len(lines) != m.height {
		t.Errorf("frame has %d lines, the terminal %d", len(lines), m.height)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > m.width {
			t.Errorf("line %d is %d columns wide, the terminal %d: %q", i, w, m.width, l)
		}
	}
	return plain
}

// newModel is a model of recs at w×h, as the first frame shows it.
func newModel(t testing.TB, w, h int, color bool, recs ...tally.Record) *Model {
	t.Helper()
	m := New(context.Background(), Options{
		Now: func() time.Time { return fixedNow }, Home: home, Color: color, Records: recs,
	})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// press sends keys: single characters, or names such as "enter", "esc".
func press(m *Model, keys ...string) {
	for _, k := range keys {
		m.Update(keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

func typeText(m *Model, s string) {
	for _, r := range s {
		press(m, string(r))
	}
}

// item builds an item; id may be "".
func item(id, title, active string, st tally.Status, blockedBy ...string) tally.Item {
	return tally.Item{ID: id, Title: title, ActiveForm: active, Status: st, BlockedBy: blockedBy}
}

// rec builds a session record last active ago before fixedNow.
func rec(id string, agent tally.Agent, project, title string, ago time.Duration, sig tally.Signal, items ...tally.Item) tally.Record {
	r := tally.Record{
		ID: id, Agent: agent, Project: project, Title: title,
		StartedAt: fixedNow.Add(-ago - time.Hour), LastActivity: fixedNow.Add(-ago), Signal: sig,
		Stats: tally.Stats{Files: 1, Lines: 240, Parsed: 240},
	}
	if len(items) > 0 {
		r.Lists = map[string][]tally.Item{"": items}
	}
	return r
}

const (
	done    = tally.StatusCompleted
	doing   = tally.StatusInProgress
	pending = tally.StatusPending
	failed  = tally.StatusFailed
)

// limiter is the dashboard's reference layout as a Claude Code session:
// one done, one in progress with its activeForm, one pending, one blocked.
func limiter() tally.Record {
	return rec("5c0375b4-57a5-4f26-b12d-d022ee4e51b7", claude.Agent, home+"/src/api", "Add a rate limiter to the API",
		20*time.Second, tally.SignalWorking,
		item("1", "Set up database", "Setting up database", done),
		item("2", "Create API endpoints", "Creating API endpoints", doing),
		item("3", "Add auth", "Adding auth", pending),
		item("4", "Integration tests", "Running integration tests", pending, "3"),
	)
}

// large is a large project: 12 tasks, 5 done, one active.
func large() tally.Record {
	names := []string{"OAuth Setup", "Login Page", "Dashboard", "Session Store", "Password Reset",
		"Payment Integration", "Email Service", "Admin Panel", "API Rate Limiting", "Analytics", "Export", "Backup"}
	var items []tally.Item
	for i, n := range names {
		st := pending
		switch {
		case i < 5:
			st = done
		case i == 5:
			st = doing
		}
		items = append(items, item(fmt.Sprintf("T%03d", i+1), n, "Integrating payments", st))
	}
	return rec("9a1b2c3d-0000-4000-8000-000000000012", claude.Agent, home+"/src/shop", "Build the shop", 5*time.Second, tally.SignalWorking, items...)
}

// fleet is a machine's worth of sessions of every agent and activity.
func fleet() []tally.Record {
	return []tally.Record{
		limiter(),
		rec("0199a1b2-codex-4c1d", codex.Agent, home+"/src/web", "Fix the login redirect loop", 4*time.Minute, tally.SignalWorking,
			item("", "Reproduce the loop", "", done), item("", "Patch the middleware", "", doing), item("", "Add a regression test", "", pending)),
		rec("gemini-7f3e", gemini.Agent, home+"/src/docs", "Rewrite the getting-started guide", 40*time.Second, tally.SignalWaiting,
			item("", "Outline", "", done), item("", "Draft", "", done), item("", "Review", "", pending)),
		rec("tally:release", tally.AgentTally, home+"/src/api", "tasks release (plan, waiting for approval)", 3*time.Minute, tally.SignalAsking,
			item("1", "Tag v2.0", "", pending), item("2", "Publish notes", "", pending)),
		rec("hermes-20261122", hermes.Agent, home+"/notes", "Plan the offsite", 2*time.Hour, tally.SignalNone,
			item("a", "Book venue", "", done), item("b", "Send invites", "", done)),
		rec("ses_opencode_1", opencode.Agent, "/srv/ops/infra", "Migrate CI to the new runners", 26*time.Hour, tally.SignalEnded,
			item("", "Move jobs", "", done), item("", "Delete old runners", "", failed)),
		rec("crush-42", crush.Agent, home+"/src/game", "Explain the physics loop", 3*24*time.Hour, tally.SignalEnded),
	}
}
