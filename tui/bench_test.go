package tui

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tallyhq/tally"
	"github.com/tallyhq/tally/adapter/claude"
	"github.com/tallyhq/tally/adapter/codex"
	"github.com/tallyhq/tally/adapter/gemini"
	"github.com/tallyhq/tally/adapter/hermes"
	"github.com/tallyhq/tally/index"
	"github.com/tallyhq/tally/store/sqlite"
)

// benchSessions is the history size the issue sets: 10,000 sessions.
const benchSessions = 10_000

// manyRecords are n sessions like a long history: mostly ended, a few
// going on, each with a short list.
func manyRecords(n int) []tally.Record {
	out := make([]tally.Record, n)
	agents := []tally.Agent{claude.Agent, codex.Agent, gemini.Agent, hermes.Agent}
	for i := range out {
		r := limiter()
		r.ID = fmt.Sprintf("session-%05d", i)
		r.Agent = agents[i%len(agents)]
		r.Project = fmt.Sprintf("%s/src/p%d", home, i%40)
		r.Title = fmt.Sprintf("Task number %d of the long history", i)
		r.LastActivity = fixedNow.Add(-time.Duration(i) * time.Minute)
		r.Lists = map[string][]tally.Item{"": append([]tally.Item(nil), r.Lists[""]...)}
		out[i] = r
	}
	return out
}

// bigStore is a real SQLite store holding n sessions.
func bigStore(b *testing.B, n int) *sqlite.Store {
	b.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "tally.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	recs := manyRecords(n)
	for i := 0; i < len(recs); i += 1000 {
		if err := st.Commit(context.Background(), tally.Batch{Sessions: recs[i:min(i+1000, len(recs))]}); err != nil {
			b.Fatal(err)
		}
	}
	return st
}

// firstPage matches what the command reads before the first frame.
const firstPage = 200

// BenchmarkFirstFrame is start to first frame with 10,000 sessions in the
// store: read the newest page, build the model, draw.
func BenchmarkFirstFrame(b *testing.B) {
	st := bigStore(b, benchSessions)
	ctx := context.Background()
	for b.Loop() {
		recs, err := st.Records(ctx, tally.SessionFilter{Limit: firstPage})
		if err != nil {
			b.Fatal(err)
		}
		m := New(ctx, Options{Now: func() time.Time { return fixedNow }, Records: recs, Color: true})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		if v := m.View(); !strings.Contains(v.Content, "Task number 0 ") {
			b.Fatal("newest session not on the first frame")
		}
	}
}

// BenchmarkFullLoad is the read of the whole history that follows the
// first frame, and the frame after it.
func BenchmarkFullLoad(b *testing.B) {
	st := bigStore(b, benchSessions)
	ctx := context.Background()
	for b.Loop() {
		m := New(ctx, Options{Now: func() time.Time { return fixedNow }, Color: true})
		m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
		recs, err := st.Records(ctx, tally.SessionFilter{})
		if err != nil {
			b.Fatal(err)
		}
		m.Update(loaded{recs: recs})
		m.View()
	}
}

// BenchmarkChange is one session's change reaching the screen of a model
// that holds 10,000 sessions: the update and the frame.
func BenchmarkChange(b *testing.B) {
	m := New(context.Background(), Options{Now: func() time.Time { return fixedNow }, Records: manyRecords(benchSessions), Color: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	r := limiter()
	i := 0
	for b.Loop() {
		i++
		r.Title = fmt.Sprintf("changed %d", i)
		m.Update(Changed{Updated: []tally.Record{r}})
		m.View()
	}
}

// BenchmarkSpinnerFrame is one spinner tick's update and frame.
func BenchmarkSpinnerFrame(b *testing.B) {
	m := New(context.Background(), Options{Now: func() time.Time { return fixedNow }, Records: manyRecords(benchSessions), Color: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	m.Update(keyMsg("T"))
	for b.Loop() {
		m.Update(spinTick{})
		m.View()
	}
}

// BenchmarkAppendedLine is a line an agent appends to its log, on screen:
// the file-system notification, the fold, the commit, the change stream,
// Feed, the model's update and its frame.
func BenchmarkAppendedLine(b *testing.B) {
	const session = "bfd476f6-2564-4246-aaa4-e4c25c7ee9b5"
	src, err := os.ReadFile("../testdata/fixtures/captured/claude-code-2.1.330/todowrite/config/projects/-tmp-capture-cc-todowrite-work/" + session + ".jsonl")
	if err != nil {
		b.Fatal(err)
	}
	var template []byte
	for _, l := range bytes.Split(src, []byte("\n")) {
		if bytes.Contains(l, []byte(`"name":"TodoWrite","input"`)) {
			template = l
			break
		}
	}
	cfg := b.TempDir()
	dir := filepath.Join(cfg, "projects", "-tmp-capture-cc-todowrite-work")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(dir, session+".jsonl")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		b.Fatal(err)
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "tally.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ix, err := index.New(ctx, index.Options{Adapters: []tally.Adapter{claude.New(claude.Options{ConfigDir: cfg})}, Store: st})
	if err != nil {
		b.Fatal(err)
	}
	sub := ix.Subscribe(1024)
	go ix.Run(ctx)
	<-ix.Ready()
	msgs := make(chan tea.Msg, 16)
	go Feed(ctx, func(m tea.Msg) { msgs <- m }, sub)
	recs, _ := st.Records(ctx, tally.SessionFilter{})
	m := New(ctx, Options{Records: recs})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	press(m, "T")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	i := 0
	for b.Loop() {
		i++
		want := fmt.Sprintf("Writing step %d", i)
		line := bytes.Replace(template, []byte("Writing greeting module"), []byte(want), 1)
		line = bytes.Replace(line, []byte("toolu_01HsIaAGanfAekozplpHlEE8"), []byte(fmt.Sprintf("toolu_bench%08d", i)), 1)
		if _, err := f.Write(append(line, '\n')); err != nil {
			b.Fatal(err)
		}
		for !strings.Contains(m.View().Content, want) {
			select {
			case msg := <-msgs:
				m.Update(msg)
			case <-time.After(5 * time.Second):
				b.Fatalf("%q never on screen", want)
			}
		}
	}
}
